import type { VendorAdapter, VendorCall } from '../vendor-adapter.js';
import { answerToolAsTextParts, answerToolAsTextStream } from '../answer-tool-as-text.js';
import { decodeAnthropicResponse } from './decode-anthropic-response.js';
import { decodeAnthropicStream } from './decode-anthropic-stream.js';
import { claudeJsonAnswerToolName, encodeAnthropicRequest } from './encode-anthropic-request.js';
import { mapAnthropicFailure } from './map-anthropic-failure.js';

/** The calls whose request asked for a JSON object, which Claude answers with a call of the gateway's tool. */
const jsonAnswerCalls = new WeakSet<VendorCall>();

/** Anthropic's Messages API (channel protocol `anthropic`, setting `apiVersion`: 2023-06-01 by default, or 2026-10-21). */
export const anthropicVendorAdapter: VendorAdapter = {
  protocol: 'anthropic',
  encodeRequest(request, call) {
    const encoded = encodeAnthropicRequest(request, call);
    if (request.outputFormat.type === 'json-object') jsonAnswerCalls.add(call);
    return encoded;
  },
  decodeResponse(bodyText, call) {
    const parts = decodeAnthropicResponse(bodyText, call);
    return jsonAnswerCalls.has(call) ? answerToolAsTextParts(parts, claudeJsonAnswerToolName) : parts;
  },
  decodeStream(body, call) {
    const parts = decodeAnthropicStream(body, call);
    return jsonAnswerCalls.has(call) ? answerToolAsTextStream(parts, claudeJsonAnswerToolName) : parts;
  },
  mapFailure: mapAnthropicFailure,
};
