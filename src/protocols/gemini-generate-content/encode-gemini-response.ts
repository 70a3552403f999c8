import type { CanonicalAnswer } from '../../core/canonical/canonical-answer.js';
import { encodeGeminiFinishReason } from './encode-gemini-finish-reason.js';
import { encodeGeminiParts } from './encode-gemini-parts.js';
import { encodeGeminiUsage } from './encode-gemini-usage.js';
import type { GeminiEncodingContext } from './gemini-encoding-context.js';
import type { GeminiAnswer } from './gemini-wire-types.js';

/** A whole answer as the GenerateContentResponse of a non-streamed `generateContent`. */
export function encodeGeminiResponse(answer: CanonicalAnswer, context: GeminiEncodingContext): GeminiAnswer {
  return {
    candidates: [
      {
        content: { role: 'model', parts: answer.blocks.flatMap((block) => encodeGeminiParts(block, context)) },
        ...(answer.finish ? { finishReason: encodeGeminiFinishReason(answer.finish) } : {}),
        index: 0,
      },
    ],
    usageMetadata: encodeGeminiUsage(answer.usage),
    modelVersion: context.model,
    responseId: context.responseId,
  };
}
