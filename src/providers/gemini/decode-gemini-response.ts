import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import type { VendorCall } from '../vendor-adapter.js';
import { GeminiAnswerDecoder } from './gemini-answer-decoder.js';
import type { GeminiResponse } from './gemini-wire-types.js';

/** A whole `GenerateContentResponse` as canonical parts (see GeminiAnswerDecoder); a blocked prompt finishes content-filter. */
export function decodeGeminiResponse(bodyText: string, _call: VendorCall): CanonicalStreamPart[] {
  return new GeminiAnswerDecoder().decode(JSON.parse(bodyText) as GeminiResponse);
}
