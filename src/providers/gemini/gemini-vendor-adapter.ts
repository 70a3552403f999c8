import type { VendorAdapter } from '../vendor-adapter.js';
import { decodeGeminiResponse } from './decode-gemini-response.js';
import { decodeGeminiStream } from './decode-gemini-stream.js';
import { encodeGeminiRequest } from './encode-gemini-request.js';
import { geminiEmbeddings } from './gemini-embeddings.js';
import { geminiSpeech } from './gemini-speech.js';
import { mapGeminiFailure } from './map-gemini-failure.js';

/** Google's Gemini API (channel protocol `gemini`, base URL e.g. `https://generativelanguage.googleapis.com/v1beta`). */
export const geminiVendorAdapter: VendorAdapter = {
  protocol: 'gemini',
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  decodeStream: decodeGeminiStream,
  mapFailure: mapGeminiFailure,
  embeddings: geminiEmbeddings,
  speech: geminiSpeech,
};
