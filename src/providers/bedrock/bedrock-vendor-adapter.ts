import type { VendorAdapter } from '../vendor-adapter.js';
import { decodeBedrockChatResponse } from './decode-bedrock-chat-response.js';
import { decodeBedrockChatStream } from './decode-bedrock-chat-stream.js';
import { encodeBedrockChatRequest } from './encode-bedrock-chat-request.js';
import { mapBedrockUpstreamFailure } from './map-bedrock-upstream-failure.js';

/** AWS Bedrock through the Converse API (`/model/{id}/converse` and `/converse-stream`), signed with SigV4. */
export const bedrockVendorAdapter: VendorAdapter = {
  protocol: 'bedrock',
  encodeRequest: encodeBedrockChatRequest,
  decodeResponse: decodeBedrockChatResponse,
  decodeStream: decodeBedrockChatStream,
  mapFailure: mapBedrockUpstreamFailure,
};
