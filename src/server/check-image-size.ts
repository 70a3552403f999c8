import { GatewayError } from '../core/gateway-error.js';
import type { CatalogModel } from '../routing/catalog-model.js';

/** A 400 naming `size` when the model does not offer that size (spec section 8). */
export function checkImageSize(model: CatalogModel, size: string | null | undefined): void {
  if (!size || !model.imageSizes || model.imageSizes.includes(size)) return;
  throw new GatewayError(
    'invalid_request_error',
    `Invalid size '${size}' for ${model.id}. Supported sizes: ${model.imageSizes.join(', ')}.`,
    { param: 'size' },
  );
}
