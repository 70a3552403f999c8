import { GatewayError } from '../core/gateway-error.js';
import type { CatalogModel } from '../routing/catalog-model.js';
import type { BillingMemory } from './billing-memory.js';
import { findImagePrice, type ModelPrice } from './model-price.js';
import type { MeteredEndpoint } from './request-accounting.js';

/**
 * The price a request for `model` is held and charged at. A model without one (no operator price, no catalog list
 * price, no operator default `*`), or an image request for a model whose price has no image price, is refused with
 * 404 `model_not_found` naming the model, before any hold or vendor call: nothing unpriced reaches a vendor.
 */
export function requireModelPrice(memory: BillingMemory, model: CatalogModel, endpoint?: MeteredEndpoint): ModelPrice {
  const price = memory.priceOf(model.id, model);
  if (!price)
    throw new GatewayError(
      'model_not_found',
      `The model '${model.id}' has no price on this gateway, so it cannot be used; ask the gateway's operator to set its price.`,
      { param: 'model' },
    );
  if (isImageEndpoint(endpoint) && findImagePrice(price, undefined, undefined) === undefined)
    throw new GatewayError(
      'model_not_found',
      `The model '${model.id}' has no image price on this gateway, so it cannot make images; ask the gateway's operator to set one.`,
      { param: 'model' },
    );
  return price;
}

function isImageEndpoint(endpoint: MeteredEndpoint | undefined): boolean {
  return endpoint === 'images.generations' || endpoint === 'images.edits';
}
