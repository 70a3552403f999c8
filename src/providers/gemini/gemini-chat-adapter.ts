import type { ChatAdapter } from '../chat-adapter.js';
import { decodeGeminiResponse } from './decode-gemini-response.js';
import { decodeGeminiStream } from './decode-gemini-stream.js';
import { encodeGeminiRequest } from './encode-gemini-request.js';
import { geminiEmbeddings } from './gemini-embeddings.js';
import { mapGeminiFailure } from './map-gemini-failure.js';

/** Google's Gemini API (channel protocol `gemini`, base URL e.g. `https://generativelanguage.googleapis.com/v1beta`). */
export const geminiChatAdapter: ChatAdapter = {
  protocol: 'gemini',
  encodeChatRequest: encodeGeminiRequest,
  decodeChatResponse: decodeGeminiResponse,
  decodeChatStream: decodeGeminiStream,
  mapFailure: mapGeminiFailure,
  embeddings: geminiEmbeddings,
};
