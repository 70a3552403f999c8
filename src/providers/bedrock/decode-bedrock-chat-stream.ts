import type { Readable } from 'node:stream';
import type { CanonicalStreamPart } from '../../core/canonical/canonical-stream-part.js';
import { convertBedrockStreamEvents } from './convert-bedrock-stream-events.js';
import { decodeBedrockEventFrames } from './decode-bedrock-event-frames.js';

/** Decodes a ConverseStream body (AWS event-stream binary framing) into canonical stream parts, incrementally. */
export function decodeBedrockChatStream(
  body: Readable | AsyncIterable<Uint8Array>,
): AsyncIterable<CanonicalStreamPart> {
  return convertBedrockStreamEvents(decodeBedrockEventFrames(body as AsyncIterable<Uint8Array>));
}
