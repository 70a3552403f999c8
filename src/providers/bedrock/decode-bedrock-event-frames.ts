import type { EventStreamCodec, Message } from '@smithy/eventstream-codec';
import { textOfUtf8, utf8OfText } from './utf8-text.js';

/** The smallest frame: 12-byte prelude (total length, headers length, prelude CRC) plus the 4-byte message CRC. */
const minimumFrameLength = 16;
/** AWS caps event-stream messages at 16 MiB; anything larger means the framing is corrupt. */
const maximumFrameLength = 16 * 1024 * 1024;

/** The byte stream is not valid AWS event-stream framing (bad length, CRC, or a frame cut off at the end). */
export class BedrockEventStreamFramingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BedrockEventStreamFramingError';
  }
}

let loadedCodec: typeof EventStreamCodec | undefined;

/**
 * Loads the AWS event-stream codec on the first Bedrock stream, so gateways without Bedrock channels never pay
 * its memory. Call it before the request is sent: a body read only after an import finished could already have
 * been cut by the vendor, and its buffered frames would be lost.
 */
export async function loadEventStreamCodec(): Promise<typeof EventStreamCodec> {
  loadedCodec ??= (await import('@smithy/eventstream-codec')).EventStreamCodec;
  return loadedCodec;
}

/**
 * Splits an `application/vnd.amazon.eventstream` body into messages as the bytes arrive. A frame may be split
 * across any number of chunks: the 4-byte big-endian total length at its start says how many bytes to wait for.
 * Each complete frame is checked (both CRCs) and decoded by the AWS codec.
 */
export async function* decodeBedrockEventFrames(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<Message> {
  const codec = new (loadedCodec ?? (await loadEventStreamCodec()))(textOfUtf8, utf8OfText);
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'binary')
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    while (pending.length >= 4) {
      const frameLength = pending.readUInt32BE(0);
      if (frameLength < minimumFrameLength || frameLength > maximumFrameLength) {
        throw new BedrockEventStreamFramingError(`Invalid event-stream frame length ${frameLength}.`);
      }
      if (pending.length < frameLength) break;
      yield decodeFrame(codec, pending.subarray(0, frameLength));
      pending = pending.subarray(frameLength);
    }
  }
  if (pending.length > 0) throw new BedrockEventStreamFramingError('The event stream ended in the middle of a frame.');
}

function decodeFrame(codec: EventStreamCodec, frame: Uint8Array): Message {
  try {
    return codec.decode(frame);
  } catch (error) {
    throw new BedrockEventStreamFramingError(
      `Corrupt event-stream frame: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
