import { z } from 'zod';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import type { VendorCall } from '../vendor-adapter.js';
import { GeminiAnswerDecoder } from './gemini-answer-decoder.js';
import type { GeminiResponse } from './gemini-wire-types.js';

/** The parts of a `GenerateContentResponse` the decoder relies on: candidates (or the feedback of a blocked prompt), numeric usage. */
const geminiResponseShape = z
  .union([z.object({ candidates: z.array(z.object({})) }), z.object({ promptFeedback: z.object({}) })])
  .and(
    z.object({
      usageMetadata: z
        .object({ promptTokenCount: z.number().nullish(), candidatesTokenCount: z.number().nullish() })
        .nullish(),
    }),
  );

/** A whole `GenerateContentResponse` as canonical parts (see GeminiAnswerDecoder); a blocked prompt finishes content-filter. */
export function decodeGeminiResponse(bodyText: string, _call: VendorCall): CanonicalStreamPart[] {
  const parsed: unknown = JSON.parse(bodyText);
  // Checked at the edge: a body with neither candidates nor prompt feedback is no answer (dispatch answers 502).
  if (!geminiResponseShape.safeParse(parsed).success)
    throw new Error('The Gemini answer has neither candidates nor prompt feedback.');
  return new GeminiAnswerDecoder().decode(parsed as GeminiResponse);
}
