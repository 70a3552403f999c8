import type { ChatAdapter } from '../chat-adapter.js';
import { decodeAnthropicResponse } from './decode-anthropic-response.js';
import { decodeAnthropicStream } from './decode-anthropic-stream.js';
import { encodeAnthropicRequest } from './encode-anthropic-request.js';
import { mapAnthropicFailure } from './map-anthropic-failure.js';

/** Anthropic's Messages API (channel protocol `anthropic`, setting `apiVersion`: 2023-06-01 by default, or 2026-10-21). */
export const anthropicChatAdapter: ChatAdapter = {
  protocol: 'anthropic',
  encodeChatRequest: encodeAnthropicRequest,
  decodeChatResponse: decodeAnthropicResponse,
  decodeChatStream: decodeAnthropicStream,
  mapFailure: mapAnthropicFailure,
};
