import type { Readable } from 'node:stream';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { readServerSentEvents } from '../read-server-sent-events.js';
import type { VendorCall } from '../vendor-adapter.js';
import { GeminiAnswerDecoder } from './gemini-answer-decoder.js';
import type { GeminiResponse } from './gemini-wire-types.js';
import { mapGeminiStreamError } from './map-gemini-failure.js';

/**
 * Decodes `streamGenerateContent?alt=sse` (each event a GenerateContentResponse holding only new parts) into
 * canonical parts through one GeminiAnswerDecoder; an `error` chunk, or an event that is not a JSON object → an error
 * part that ends the parts.
 */
export async function* decodeGeminiStream(body: Readable, _call: VendorCall): AsyncGenerator<CanonicalStreamPart> {
  const decoder = new GeminiAnswerDecoder();
  for await (const event of readServerSentEvents(body)) {
    const chunk = parseChunk(event.data);
    if (!chunk) {
      // Each event is one GenerateContentResponse: anything else (an HTML page, cut-off JSON) ends the answer.
      if (event.data.trim() === '') continue;
      yield unreadableEventPart;
      return;
    }
    if (chunk.error) {
      yield mapGeminiStreamError(chunk.error);
      return;
    }
    yield* decoder.decode(chunk);
  }
}

/** The error part of an event the decoder cannot read. */
const unreadableEventPart: CanonicalStreamPart = {
  type: 'error',
  failure: {
    code: 'server_error',
    message: 'The upstream vendor sent a stream event the gateway could not read; the answer is incomplete.',
  },
};

function parseChunk(data: string): GeminiResponse | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as GeminiResponse) : undefined;
  } catch {
    return undefined;
  }
}
