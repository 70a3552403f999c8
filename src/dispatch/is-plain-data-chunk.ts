const lineFeed = 0x0a;
const carriageReturn = 0x0d;
const openingBrace = 0x7b;
const dataFieldPrefix = Buffer.from('data: ');
const errorPayloadPrefix = Buffer.from('{"error"');
const usageKey = Buffer.from('"usage"');

/**
 * True when an upstream chunk of an OpenAI event stream is whole `data: {…}\n\n` events and nothing else, none of
 * which the relay must act on: no `[DONE]`, no error, no usage object (a `"usage":null` field is fine). Such a chunk
 * is exactly what re-encoding its events would write, so the relay forwards its bytes as they are and skips decoding,
 * parsing and re-encoding. Anything else (another field, a comment, CR line ends, an event cut across chunks) answers
 * false and takes the parser's path. The caller must know the chunk starts at an event boundary.
 */
export function isPlainDataChunk(chunk: Buffer): boolean {
  const length = chunk.length;
  if (length < dataFieldPrefix.length + 3 || chunk[length - 1] !== lineFeed || chunk[length - 2] !== lineFeed) return false;
  if (chunk.includes(carriageReturn)) return false;
  for (let eventStart = 0; eventStart < length; ) {
    const payloadStart = eventStart + dataFieldPrefix.length;
    if (chunk.compare(dataFieldPrefix, 0, dataFieldPrefix.length, eventStart, payloadStart) !== 0) return false;
    if (chunk[payloadStart] !== openingBrace) return false;
    if (chunk.compare(errorPayloadPrefix, 0, errorPayloadPrefix.length, payloadStart, payloadStart + errorPayloadPrefix.length) === 0) return false;
    // The chunk ends with a line feed, so one is always found; a single-line event is followed by the blank line.
    const lineEnd = chunk.indexOf(lineFeed, payloadStart);
    if (chunk[lineEnd + 1] !== lineFeed) return false;
    eventStart = lineEnd + 2;
  }
  return !hasUsageObject(chunk);
}

/** Whether a `"usage"` key is followed by an object, as the relay's check of one event's data would find it. */
function hasUsageObject(chunk: Buffer): boolean {
  for (let found = chunk.indexOf(usageKey); found !== -1; found = chunk.indexOf(usageKey, found + usageKey.length)) {
    let index = skipJsonWhitespace(chunk, found + usageKey.length);
    if (chunk[index] !== 0x3a) continue;
    index = skipJsonWhitespace(chunk, index + 1);
    if (chunk[index] === openingBrace) return true;
  }
  return false;
}

function skipJsonWhitespace(chunk: Buffer, index: number): number {
  let position = index;
  while (chunk[position] === 0x20 || chunk[position] === 0x09) position += 1;
  return position;
}
