import { decodedByteLength, parseBase64Payload } from './base64-payload.js';
import { bytesPerEstimatedToken } from './estimate-text-tokens.js';
import { isPdfPayload } from './is-pdf-payload.js';

// The worst cases below are documented in docs/BILLING.md ("Hold and settle"); keep the two in step.

/** Tokens held for an image URL the gateway cannot measure, by its `detail` (`auto` and `high` alike). */
export const imageUrlTokenEstimate = {
  /** Anthropic and Gemini ignore `detail`: Anthropic's largest image is about 1,600 tokens */
  low: 1_600,
  /** OpenAI's tile models reach 1,445, its patch models about 2,500; Gemini tiles big images at 258 a tile */
  high: 3_000,
} as const;
/** Decoded image bytes counted as one token for inline images (a 20 MB image counts 20,000 tokens). */
export const imageBytesPerToken = 1_000;
/** Tokens per second of input audio (Gemini's documented rate, the highest among vendors). */
export const audioTokensPerSecond = 32;
/** Fewest bytes a second of audio takes, by `input_audio.format`: 8 kHz 8-bit mono PCM for WAV, 16 kbit/s otherwise. */
export const inputAudioBytesPerSecondFloor = { wav: 8_000, other: 2_000 } as const;
/** Tokens held per PDF page: up to 3,000 of extracted text plus an image of the page (about 1,600 at most). */
export const pdfPageTokens = 4_600;
/** Decoded PDF bytes counted as one token, a floor for PDFs whose pages cannot be counted. */
export const pdfBytesPerToken = 100;
/** Pages assumed for a file given by `file_id` only: its size is unknown to the gateway. */
export const unknownFilePages = 20;

/** A content part of a chat message, as far as holds read it. */
interface MediaPart {
  type?: unknown;
  image_url?: unknown;
  input_audio?: unknown;
  file?: unknown;
}

/**
 * Input tokens of one non-text part of a chat message, estimated from its size without decoding it (see the
 * constants above); undefined for parts that are not media. Images, audio and files are what make a prompt
 * large, so each is counted on the high side: a hold must cover what the vendor will bill. An inline PDF counts 0
 * here: the string carrying it is added to `inlinePdfs`, whose pages billing counts after admission (pdfPageTokens a
 * page, at least one token per pdfBytesPerToken bytes; see RequestEstimate.inlinePdfs).
 */
export function estimateMediaPartTokens(part: MediaPart, inlinePdfs: string[]): number | undefined {
  switch (part.type) {
    case 'image_url':
      return estimateImageTokens(part.image_url);
    case 'input_audio':
      return estimateAudioTokens(part.input_audio);
    case 'file':
      return estimateFileTokens(part.file, inlinePdfs);
    default:
      return undefined;
  }
}

function estimateImageTokens(imageUrl: unknown): number {
  const { url, detail } = (typeof imageUrl === 'string' ? { url: imageUrl } : (imageUrl ?? {})) as {
    url?: unknown;
    detail?: unknown;
  };
  const floor = detail === 'low' ? imageUrlTokenEstimate.low : imageUrlTokenEstimate.high;
  const payload = typeof url === 'string' ? parseBase64Payload(url, false) : undefined;
  if (!payload) return floor;
  return Math.max(floor, Math.ceil(decodedByteLength(payload) / imageBytesPerToken));
}

function estimateAudioTokens(inputAudio: unknown): number {
  const { data, format } = (inputAudio ?? {}) as { data?: unknown; format?: unknown };
  const payload = typeof data === 'string' ? parseBase64Payload(data, true) : undefined;
  if (!payload) return 0;
  const bytesPerSecond = format === 'wav' ? inputAudioBytesPerSecondFloor.wav : inputAudioBytesPerSecondFloor.other;
  return Math.ceil((decodedByteLength(payload) / bytesPerSecond) * audioTokensPerSecond);
}

function estimateFileTokens(file: unknown, inlinePdfs: string[]): number {
  const { file_data: fileData } = (file ?? {}) as { file_data?: unknown };
  const payload = typeof fileData === 'string' ? parseBase64Payload(fileData, true) : undefined;
  if (!payload) return unknownFilePages * pdfPageTokens;
  if (!isPdfPayload(payload)) return Math.ceil(decodedByteLength(payload) / bytesPerEstimatedToken);
  inlinePdfs.push(payload.text);
  return 0;
}
