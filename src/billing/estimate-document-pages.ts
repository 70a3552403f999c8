import { decodedByteLength, parseBase64Payload } from '../core/token-estimates/base64-payload.js';
import {
  pdfBytesPerToken,
  pdfPageTokens,
  unknownFilePages,
} from '../core/token-estimates/estimate-media-part-tokens.js';
import {
  countPdfPagesUnread,
  countPdfPagesWithinBudget,
  type DecompressionBudget,
  type PdfPageCount,
} from './count-pdf-pages.js';

/**
 * Page counts of a request's PDFs made before its hold (see estimateDocumentPages), by the string carrying each file's
 * data; a PDF not in it is counted without decompressing anything.
 */
export type DocumentPageCounts = ReadonlyMap<string, PdfPageCount>;

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

/**
 * Input tokens of a request's inline PDFs (RequestEstimate.inlinePdfs, one entry per file part): each held at
 * pdfPageTokens a page counted in `documentPages` (a PDF not in it is counted without decompressing), and at least
 * one token per pdfBytesPerToken bytes. Pages may hide in object streams left compressed (past the request's
 * decompression budget): an incomplete count holds at least what a file known only by id holds.
 */
export function estimateInlinePdfTokens(
  inlinePdfs: readonly string[],
  documentPages: DocumentPageCounts | undefined,
): number {
  let tokens = 0;
  for (const document of inlinePdfs) {
    const payload = parseBase64Payload(document, true);
    if (!payload) continue;
    const counted = documentPages?.get(document) ?? countPdfPagesUnread(payload);
    const pages = counted.complete ? Math.max(1, counted.pages) : Math.max(unknownFilePages, counted.pages);
    tokens += Math.max(pages * pdfPageTokens, Math.ceil(decodedByteLength(payload) / pdfBytesPerToken));
  }
  return tokens;
}
