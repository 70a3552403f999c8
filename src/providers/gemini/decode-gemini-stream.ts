import type { Readable } from 'node:stream';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { readServerSentEvents } from '../read-server-sent-events.js';
import type { VendorCall } from '../vendor-adapter.js';
import { GeminiAnswerDecoder } from './gemini-answer-decoder.js';
import type { GeminiResponse } from './gemini-wire-types.js';
import { mapGeminiStreamError } from './map-gemini-failure.js';

/**
 * Decodes `streamGenerateContent?alt=sse` (each event a GenerateContentResponse holding only new parts) into
 * canonical parts through one GeminiAnswerDecoder; an `error` chunk → an error part that ends the parts.
 */
export async function* decodeGeminiStream(body: Readable, _call: VendorCall): AsyncGenerator<CanonicalStreamPart> {
  const decoder = new GeminiAnswerDecoder();
  for await (const event of readServerSentEvents(body)) {
    const chunk = parseChunk(event.data);
    if (!chunk) continue;
    if (chunk.error) {
      yield mapGeminiStreamError(chunk.error);
      return;
    }
    yield* decoder.decode(chunk);
  }
}

function parseChunk(data: string): GeminiResponse | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' ? (parsed as GeminiResponse) : undefined;
  } catch {
    return undefined;
  }
}
