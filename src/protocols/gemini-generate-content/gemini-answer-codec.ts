import type { ClientAnswerCodec } from '../../core/canonical/client-answer-codec.js';
import { encodeGeminiResponse } from './encode-gemini-response.js';
import type { GeminiEncodingContext } from './gemini-encoding-context.js';
import { geminiParamName } from './gemini-param-name.js';
import { createGeminiStreamEncoder } from './gemini-stream-encoder.js';

/** The Gemini generateContent codec for one request: the GenerateContentResponse JSON, or its chunk stream. */
export function createGeminiAnswerCodec(context: GeminiEncodingContext): ClientAnswerCodec {
  return {
    encodeAnswer: (answer) => JSON.stringify(encodeGeminiResponse(answer, context)),
    createStreamEncoder: () => createGeminiStreamEncoder(context),
    clientParam: geminiParamName,
  };
}
