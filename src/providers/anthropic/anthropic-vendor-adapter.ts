import type { VendorAdapter } from '../vendor-adapter.js';
import { decodeAnthropicResponse } from './decode-anthropic-response.js';
import { decodeAnthropicStream } from './decode-anthropic-stream.js';
import { encodeAnthropicRequest } from './encode-anthropic-request.js';
import { mapAnthropicFailure } from './map-anthropic-failure.js';

/** Anthropic's Messages API (channel protocol `anthropic`, setting `apiVersion`: 2023-06-01 by default, or 2026-10-21). */
export const anthropicVendorAdapter: VendorAdapter = {
  protocol: 'anthropic',
  encodeRequest: encodeAnthropicRequest,
  decodeResponse: decodeAnthropicResponse,
  decodeStream: decodeAnthropicStream,
  mapFailure: mapAnthropicFailure,
};
