/**
 * Inline data of a request part (a `data:` URL or bare base64), located inside the string that carries it so
 * holds can measure and sample it without copying or decoding the whole of a large part.
 */
export interface Base64Payload {
  /** the string holding the data (the whole URL or field value) */
  text: string;
  /** index in `text` of the first base64 character */
  start: number;
  /** index in `text` just after the last data character, padding excluded */
  end: number;
  /** the media type a `data:` URL declares (lower case), else undefined */
  mediaType: string | undefined;
  /** false for a `data:` URL without `;base64`: its characters are the bytes (percent-encoding counted as is) */
  isBase64: boolean;
}

const base64Marker = ';base64';

/** Locates the data of a `data:` URL, or of a bare base64 string when `allowBare`; undefined for anything else. */
export function parseBase64Payload(value: string, allowBare: boolean): Base64Payload | undefined {
  if (value.startsWith('data:')) {
    const comma = value.indexOf(',');
    if (comma < 0) return undefined;
    const header = value.slice(5, comma).toLowerCase();
    const isBase64 = header.endsWith(base64Marker);
    const mediaType = (isBase64 ? header.slice(0, -base64Marker.length) : header).split(';')[0] || undefined;
    return {
      text: value,
      start: comma + 1,
      end: isBase64 ? endWithoutPadding(value) : value.length,
      mediaType,
      isBase64,
    };
  }
  if (!allowBare) return undefined;
  return { text: value, start: 0, end: endWithoutPadding(value), mediaType: undefined, isBase64: true };
}

/** Decoded bytes of the payload, from its length alone (line breaks inside the base64, if any, count as data). */
export function decodedByteLength(payload: Base64Payload): number {
  const characters = Math.max(0, payload.end - payload.start);
  return payload.isBase64 ? Math.floor((characters * 3) / 4) : characters;
}

/**
 * Decodes the bytes [byteStart, byteEnd) of the payload only: four base64 characters are three bytes, so any
 * range maps to a slice of the text. Assumes base64 without line breaks (anything else decodes to noise, which
 * callers treat as unknown content).
 */
export function decodeByteRange(payload: Base64Payload, byteStart: number, byteEnd: number): Buffer {
  const length = decodedByteLength(payload);
  const from = Math.max(0, Math.min(byteStart, length));
  const to = Math.max(from, Math.min(byteEnd, length));
  if (!payload.isBase64) return Buffer.from(payload.text.slice(payload.start + from, payload.start + to), 'latin1');
  const firstGroup = Math.floor(from / 3);
  const lastGroup = Math.ceil(to / 3);
  const characterStart = payload.start + firstGroup * 4;
  const characterEnd = Math.min(payload.end, payload.start + lastGroup * 4);
  const decoded = Buffer.from(payload.text.slice(characterStart, characterEnd), 'base64');
  return decoded.subarray(from - firstGroup * 3, to - firstGroup * 3);
}

function endWithoutPadding(value: string): number {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x3d /* = */) end--;
  return end;
}
