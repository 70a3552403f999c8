import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import { answerToolAsTextParts, answerToolAsTextStream } from '../answer-tool-as-text.js';
import type { VendorAdapter, VendorCall } from '../vendor-adapter.js';
import { decodeBedrockChatResponse } from './decode-bedrock-chat-response.js';
import { decodeBedrockChatStream } from './decode-bedrock-chat-stream.js';
import { encodeBedrockChatRequest } from './encode-bedrock-chat-request.js';
import { mapBedrockUpstreamFailure } from './map-bedrock-upstream-failure.js';

/** The tool a JSON-object answer is asked for with on Converse (its input is the answer); see answerToolAsText. */
export const bedrockJsonAnswerToolName = 'json_answer';

/** The calls whose request asked for a JSON object, which the model answers with a call of the gateway's tool. */
const jsonAnswerCalls = new WeakSet<VendorCall>();

/** AWS Bedrock through the Converse API (`/model/{id}/converse` and `/converse-stream`), signed with SigV4. */
export const bedrockVendorAdapter: VendorAdapter = {
  protocol: 'bedrock',
  encodeRequest(request, call) {
    if (request.outputFormat.type !== 'json-object') return encodeBedrockChatRequest(request, call);
    const encoded = encodeBedrockChatRequest(withJsonAnswerTool(request), call);
    jsonAnswerCalls.add(call);
    return encoded;
  },
  decodeResponse(bodyText, call) {
    const parts = decodeBedrockChatResponse(bodyText, call);
    return jsonAnswerCalls.has(call) ? answerToolAsTextParts(parts, bedrockJsonAnswerToolName) : parts;
  },
  decodeStream(body, call) {
    const parts = decodeBedrockChatStream(body);
    return jsonAnswerCalls.has(call) ? answerToolAsTextStream(parts, bedrockJsonAnswerToolName) : parts;
  },
  mapFailure: mapBedrockUpstreamFailure,
};

/**
 * A JSON-object request as Converse can serve it: its JSON output takes a schema, so "any object" is a forced call
 * of the gateway's `json_answer` tool whose input schema is any object; refused with client tools or a reasoning effort
 * (Claude refuses a forced tool with thinking).
 */
function withJsonAnswerTool(request: CanonicalRequest): CanonicalRequest {
  if (request.tools.length > 0 || (request.reasoningEffort !== null && request.reasoningEffort !== 'none')) {
    throw new GatewayError(
      'invalid_request_error',
      `\`response_format\` 'json_object' cannot be combined with ${request.tools.length > 0 ? '`tools`' : '`reasoning_effort`'} on Bedrock (its JSON mode is a forced tool call); use 'json_schema' with a schema.`,
      { param: 'response_format' },
    );
  }
  return {
    ...request,
    outputFormat: { type: 'text' },
    tools: [
      {
        name: bedrockJsonAnswerToolName,
        description: 'Give your whole answer as this JSON object.',
        parameters: { type: 'object' },
        strict: null,
      },
    ],
    toolChoice: { type: 'tool', name: bedrockJsonAnswerToolName },
  };
}
