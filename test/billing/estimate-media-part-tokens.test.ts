import { describe, expect, it } from 'vitest';
import { countPdfPages, pdfMaxCountedPages } from '../../src/billing/count-pdf-pages.js';
import {
  estimateDocumentPages,
  estimateInlinePdfTokens,
  type DocumentPageCounts,
} from '../../src/billing/estimate-document-pages.js';
import {
  decodeByteRange,
  decodedByteLength,
  parseBase64Payload,
} from '../../src/core/token-estimates/base64-payload.js';
import {
  audioTokensPerSecond,
  estimateMediaPartTokens as estimateMediaPartTokensBesidePdfs,
  imageBytesPerToken,
  imageUrlTokenEstimate,
  pdfBytesPerToken,
  pdfPageTokens,
  unknownFilePages,
} from '../../src/core/token-estimates/estimate-media-part-tokens.js';
import { createPdfFilePart, createTestPdf } from './create-test-pdf.js';

/**
 * What a part holds in all: its own estimate (core), plus, for an inline PDF it hands over, the tokens of its pages as
 * billing counts them (with the page counts made after admission, when given).
 */
function estimateMediaPartTokens(
  part: Parameters<typeof estimateMediaPartTokensBesidePdfs>[0],
  documentPages?: DocumentPageCounts,
): number | undefined {
  const inlinePdfs: string[] = [];
  const tokens = estimateMediaPartTokensBesidePdfs(part, inlinePdfs);
  return tokens === undefined ? undefined : tokens + estimateInlinePdfTokens(inlinePdfs, documentPages);
}

function dataUrl(mediaType: string, bytes: Buffer): string {
  return `data:${mediaType};base64,${bytes.toString('base64')}`;
}

describe('base64 payloads', () => {
  it('measures decoded bytes from the length alone, padding included, and decodes any byte range', () => {
    for (const size of [0, 1, 2, 3, 4, 5, 1000, 1001, 1002]) {
      const bytes = Buffer.from(Array.from({ length: size }, (_, index) => (index * 7) % 256));
      const payload = parseBase64Payload(dataUrl('image/png', bytes), false)!;
      expect(decodedByteLength(payload)).toBe(size);
      expect(decodeByteRange(payload, 1, size - 1)).toEqual(bytes.subarray(1, Math.max(1, size - 1)));
    }
    expect(parseBase64Payload('https://example.com/cat.png', false)).toBeUndefined();
    expect(parseBase64Payload(Buffer.from('%PDF-1.7').toString('base64'), true)?.mediaType).toBeUndefined();
  });
});

describe('estimateMediaPartTokens', () => {
  it('holds an image URL at the documented worst case for its detail', () => {
    expect(estimateMediaPartTokens({ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } })).toBe(
      imageUrlTokenEstimate.high,
    );
    expect(
      estimateMediaPartTokens({ type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'high' } }),
    ).toBe(imageUrlTokenEstimate.high);
    expect(
      estimateMediaPartTokens({ type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } }),
    ).toBe(imageUrlTokenEstimate.low);
  });

  it('holds an inline image by its decoded size, never less than the worst case of its detail', () => {
    const small = Buffer.alloc(10_000, 1);
    expect(estimateMediaPartTokens({ type: 'image_url', image_url: { url: dataUrl('image/png', small) } })).toBe(
      imageUrlTokenEstimate.high,
    );
    const large = Buffer.alloc(8_000_000, 1);
    expect(
      estimateMediaPartTokens({ type: 'image_url', image_url: { url: dataUrl('image/jpeg', large), detail: 'low' } }),
    ).toBe(8_000_000 / imageBytesPerToken);
  });

  it('holds input audio by its length in seconds at the slowest bitrate of its format', () => {
    const audio = Buffer.alloc(80_000).toString('base64');
    expect(estimateMediaPartTokens({ type: 'input_audio', input_audio: { data: audio, format: 'wav' } })).toBe(
      10 * audioTokensPerSecond,
    );
    expect(estimateMediaPartTokens({ type: 'input_audio', input_audio: { data: audio, format: 'mp3' } })).toBe(
      40 * audioTokensPerSecond,
    );
  });

  it('hands an inline PDF over to be counted by its pages, and counts the parts it can measure itself', () => {
    const pdf = createPdfFilePart(createTestPdf({ pages: 12 }));
    const inlinePdfs: string[] = [];
    expect(estimateMediaPartTokensBesidePdfs(pdf, inlinePdfs)).toBe(0);
    expect(inlinePdfs).toEqual([pdf.file.file_data]);
    expect(estimateMediaPartTokensBesidePdfs({ type: 'file', file: { file_id: 'file-abc' } }, inlinePdfs)).toBe(
      unknownFilePages * pdfPageTokens,
    );
    expect(inlinePdfs).toHaveLength(1);
  });

  it('holds a PDF by its pages, counted from page objects', () => {
    expect(estimateMediaPartTokens(createPdfFilePart(createTestPdf({ pages: 12 })))).toBe(12 * pdfPageTokens);
  });

  it('counts pages hidden in a compressed object stream (PDF 1.5+) once they are inflated within the budget', async () => {
    const pdf = createTestPdf({ pages: 30, compressed: true });
    expect(pdf.includes('/Type /Page ')).toBe(false);
    const part = createPdfFilePart(pdf);
    const documentPages = await estimateDocumentPages([part.file.file_data], 1024 * 1024);
    expect(estimateMediaPartTokens(part, documentPages)).toBe(30 * pdfPageTokens);
    // Counted without decompressing (no page counts given), the hidden pages hold what a file known only by id holds.
    expect(estimateMediaPartTokens(part)).toBe(unknownFilePages * pdfPageTokens);
  });

  it("holds a PDF whose object streams inflate past the request's budget at least as a file known only by id", async () => {
    const part = createPdfFilePart(createTestPdf({ pages: 30, compressed: true }));
    const documentPages = await estimateDocumentPages([part.file.file_data], 16);
    expect(documentPages.get(part.file.file_data)).toEqual({ pages: 0, complete: false });
    expect(estimateMediaPartTokens(part, documentPages)).toBe(unknownFilePages * pdfPageTokens);
  });

  it('holds a PDF by its bytes when they say more than its pages', () => {
    const pdf = createTestPdf({ pages: 1, paddingBytes: 3_000_000 });
    expect(estimateMediaPartTokens(createPdfFilePart(pdf))).toBe(Math.ceil(pdf.length / pdfBytesPerToken));
  });

  it('samples a PDF larger than the scan budget and still finds its page tree', () => {
    const pdf = createTestPdf({ pages: 400, paddingBytes: 9_000_000 });
    expect(countPdfPages(parseBase64Payload(pdf.toString('base64'), true)!)).toBe(400);
    expect(estimateMediaPartTokens(createPdfFilePart(pdf))).toBe(400 * pdfPageTokens);
  });

  it('extrapolates page objects seen in the sampled windows when the page tree is out of sight', () => {
    const pages = Buffer.from(
      Array.from({ length: 10 }, (_, index) => `${index + 3} 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n`).join(
        '',
      ),
    );
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), pages, Buffer.alloc(9 * 1024 * 1024, 0x41)]);
    const counted = countPdfPages(parseBase64Payload(pdf.toString('base64'), true)!);
    expect(counted).toBe(Math.ceil((10 * pdf.length) / (4 * 1024 * 1024)));
  });

  it('caps a forged page count and holds a file known only by id at the documented page count', () => {
    const forged = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Pages /Count 999999999 >>\nendobj\n');
    expect(countPdfPages(parseBase64Payload(forged.toString('base64'), true)!)).toBe(pdfMaxCountedPages);
    expect(estimateMediaPartTokens({ type: 'file', file: { file_id: 'file-abc' } })).toBe(
      unknownFilePages * pdfPageTokens,
    );
  });

  it('holds a non-PDF file like text, by its decoded bytes', () => {
    const text = Buffer.from('x'.repeat(3_000));
    expect(estimateMediaPartTokens({ type: 'file', file: { file_data: dataUrl('text/plain', text) } })).toBe(1_000);
  });

  it('ignores parts that are not media', () => {
    expect(estimateMediaPartTokens({ type: 'text' })).toBeUndefined();
  });
});
