import { GatewayError } from '../core/gateway-error.js';
import type { CatalogModel, ModelKind } from '../routing/catalog-model.js';
import type { KeyPrincipal, RoutingTable } from '../routing/routing-table.js';

/**
 * The model the request names, if the key's group allows it and a channel serves it (else 404
 * `model_not_found`), and if it serves this endpoint (else 400 naming `model`).
 */
export function resolveModel(
  table: RoutingTable,
  principal: KeyPrincipal,
  modelId: string,
  acceptedKinds: readonly ModelKind[],
): CatalogModel {
  const model = table.findModelFor(principal, modelId);
  if (!model) {
    throw new GatewayError(
      'model_not_found',
      `The model '${modelId}' does not exist or you do not have access to it.`,
      { param: 'model' },
    );
  }
  if (model.kind !== 'any' && !acceptedKinds.includes(model.kind)) {
    throw new GatewayError(
      'invalid_request_error',
      `The model '${modelId}' is a ${model.kind} model and cannot be used with this endpoint.`,
      { param: 'model' },
    );
  }
  return model;
}
