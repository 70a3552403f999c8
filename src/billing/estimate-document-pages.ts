import type { CanonicalRequest } from '../core/canonical/canonical-request.js';
import { parseBase64Payload } from './base64-payload.js';
import {
  countPdfPagesWithinBudget,
  isPdfPayload,
  type DecompressionBudget,
  type PdfPageCount,
} from './count-pdf-pages.js';
import type { DocumentPageCounts } from './estimate-media-part-tokens.js';

/** Where a request's inline files are: a chat body's `file` parts, or a canonical request's file parts. */
export interface RequestDocumentSource {
  /** the validated chat body (its `messages[].content[]` file parts), for requests without a canonical request */
  body?: Readonly<Record<string, unknown>>;
  /** the canonical request (Responses, Messages, count_tokens), read instead of the body when present */
  canonicalRequest?: CanonicalRequest;
}

/**
 * The data strings of the request's inline PDFs, in request order: the files a hold estimate counts pages of (see
 * estimateMediaPartTokens). Reads only what the estimate reads, so each string found is the one it looks up.
 */
export function collectRequestDocuments(source: RequestDocumentSource): string[] {
  const documents: string[] = [];
  const add = (value: unknown): void => {
    if (typeof value !== 'string') return;
    const payload = parseBase64Payload(value, true);
    if (payload && isPdfPayload(payload)) documents.push(value);
  };
  if (source.canonicalRequest) {
    for (const message of source.canonicalRequest.messages) {
      for (const part of message.content) {
        if (part.type === 'file') add(part.data);
        else if (part.type === 'tool-result' && typeof part.output !== 'string')
          for (const item of part.output) if (item.type === 'file') add(item.data);
      }
    }
    return documents;
  }
  const messages = Array.isArray(source.body?.messages) ? (source.body.messages as unknown[]) : [];
  for (const message of messages) {
    const content =
      typeof message === 'object' && message !== null ? (message as { content?: unknown }).content : undefined;
    if (!Array.isArray(content)) continue;
    for (const part of content as unknown[]) {
      if (typeof part !== 'object' || part === null) continue;
      const { type, file } = part as { type?: unknown; file?: unknown };
      if (type === 'file' && typeof file === 'object' && file !== null)
        add((file as { file_data?: unknown }).file_data);
    }
  }
  return documents;
}

/**
 * Pages of each document, counted with one decompression budget for the whole request (`budgetBytes` inflated bytes
 * at most, shared by all its files, inflated off the main thread): a request's hold then costs the event loop a scan
 * of its raw bytes, and a deflate bomb costs at most the budget on the thread pool.
 */
export async function estimateDocumentPages(
  documents: readonly string[],
  budgetBytes: number,
): Promise<DocumentPageCounts> {
  const budget: DecompressionBudget = { remainingBytes: budgetBytes };
  const counts = new Map<string, PdfPageCount>();
  for (const document of documents) {
    if (counts.has(document)) continue;
    const payload = parseBase64Payload(document, true);
    if (payload) counts.set(document, await countPdfPagesWithinBudget(payload, budget));
  }
  return counts;
}
