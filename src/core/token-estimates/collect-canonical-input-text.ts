import type {
  CanonicalImagePart,
  CanonicalFilePart,
  CanonicalMessage,
  CanonicalRequest,
} from '../canonical/canonical-request.js';
import { estimateMediaPartTokens } from './estimate-media-part-tokens.js';

/** Tokens added per message for the role and separators (as for chat messages). */
const tokensPerMessage = 4;

/** A canonical request's input split into the text to count and the tokens already known without it. */
export interface CanonicalInputText {
  /** every text of the request (instructions, messages, tools, output schema) joined by newlines */
  text: string;
  /** tokens of everything but `text` and the inline PDFs: per-message overhead, images and files by their worst cases */
  tokensBesideText: number;
  /** the strings carrying the request's inline PDFs, one per file part in request order: counted by their pages */
  inlinePdfs: string[];
}

/**
 * The texts of a canonical request (Responses, Messages) joined into one, the tokens of the rest, and its inline PDFs,
 * so a caller counts the text its own way (by length for holds, with the tokenizer worker for Messages `count_tokens`)
 * and the PDFs' pages once they may be counted.
 */
export function collectCanonicalInputText(request: CanonicalRequest): CanonicalInputText {
  const texts: string[] = [];
  const inlinePdfs: string[] = [];
  let tokens = 0;
  if (request.instructions !== null) {
    texts.push(request.instructions);
    tokens += tokensPerMessage;
  }
  for (const message of request.messages) {
    tokens += tokensPerMessage + collectMessage(message, texts, inlinePdfs);
  }
  if (request.tools.length > 0) texts.push(JSON.stringify(request.tools));
  if (request.outputFormat.type === 'json-schema') texts.push(JSON.stringify(request.outputFormat.schema));
  return { text: texts.join('\n'), tokensBesideText: tokens, inlinePdfs };
}

/** Pushes the message's texts into `texts`; returns the tokens of its media parts. */
function collectMessage(message: CanonicalMessage, texts: string[], inlinePdfs: string[]): number {
  let mediaTokens = 0;
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        texts.push(part.text);
        break;
      case 'image':
      case 'file':
        mediaTokens += estimateMediaTokens(part, inlinePdfs);
        break;
      case 'tool-call':
        texts.push(part.name, part.arguments);
        break;
      case 'tool-result':
        if (typeof part.output === 'string') texts.push(part.output);
        else
          for (const item of part.output) {
            if (item.type === 'text') texts.push(item.text);
            else mediaTokens += estimateMediaTokens(item, inlinePdfs);
          }
        break;
      default: {
        const unreachable: never = part;
        throw new Error(`Unhandled part ${String(unreachable)}`);
      }
    }
  }
  return mediaTokens;
}

/** The chat-shaped part estimateMediaPartTokens reads, so both paths share one set of worst cases. */
function estimateMediaTokens(part: CanonicalImagePart | CanonicalFilePart, inlinePdfs: string[]): number {
  if (part.type === 'image')
    return (
      estimateMediaPartTokens({ type: 'image_url', image_url: { url: part.url, detail: part.detail } }, inlinePdfs) ?? 0
    );
  return (
    estimateMediaPartTokens(
      { type: 'file', file: part.data === undefined ? {} : { file_data: part.data } },
      inlinePdfs,
    ) ?? 0
  );
}
