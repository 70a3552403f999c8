import { GatewayError } from '../../core/gateway-error.js';

/**
 * Image-to-video (`input_reference` as an upload, `input_reference[image_url]` or `[file_id]`) is not supported yet:
 * a 400 naming it, rather than a video made from the prompt alone.
 */
export function refuseVideoInputReference(fieldNames: Iterable<string>): void {
  for (const name of fieldNames) {
    if (name === 'input_reference' || name.startsWith('input_reference[')) {
      throw new GatewayError(
        'invalid_request_error',
        'input_reference (image-to-video) is not supported by this gateway; send a prompt only.',
        { param: 'input_reference' },
      );
    }
  }
}
