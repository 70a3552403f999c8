// Builds small but well-formed PDFs for the hold estimates: plain page objects, or pages hidden in a compressed
// object stream the way PDF 1.5+ writers (pdfTeX, Word) store them.
import { deflateSync } from 'node:zlib';

/** A PDF of `pages` pages, padded with a binary stream to about `paddingBytes`; `compressed` puts the page tree in an object stream. */
export function createTestPdf(options: { pages: number; compressed?: boolean; paddingBytes?: number }): Buffer {
  const { pages, compressed = false, paddingBytes = 0 } = options;
  const pageNumbers = Array.from({ length: pages }, (_, index) => 10 + index);
  const kids = pageNumbers.map((number) => `${number} 0 R`).join(' ');
  const pageTree = `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`;
  const pageObjects = pageNumbers.map(
    (number) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>`,
  );
  const parts: Buffer[] = [
    Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
    Buffer.from('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
  ];
  if (compressed) {
    const objects = [pageTree, ...pageObjects];
    const offsets: string[] = [];
    let body = '';
    for (const [index, object] of objects.entries()) {
      offsets.push(`${index === 0 ? 2 : pageNumbers[index - 1]} ${body.length}`);
      body += `${object}\n`;
    }
    const header = `${offsets.join(' ')}\n`;
    const stream = deflateSync(Buffer.from(header + body));
    parts.push(
      Buffer.from(
        `3 0 obj\n<< /Type /ObjStm /N ${objects.length} /First ${header.length} /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`,
      ),
      stream,
      Buffer.from('\nendstream\nendobj\n'),
    );
  } else {
    parts.push(Buffer.from(`2 0 obj\n${pageTree}\nendobj\n`));
    for (const [index, object] of pageObjects.entries())
      parts.push(Buffer.from(`${pageNumbers[index]} 0 obj\n${object}\nendobj\n`));
  }
  const padding = Buffer.alloc(paddingBytes, 0x41);
  parts.push(
    Buffer.from(`4 0 obj\n<< /Length ${padding.length} >>\nstream\n`),
    padding,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  );
  return Buffer.concat(parts);
}

/** A PDF as a chat `file` part with a base64 data URL. */
export function createPdfFilePart(pdf: Buffer): { type: 'file'; file: { filename: string; file_data: string } } {
  return {
    type: 'file',
    file: { filename: 'document.pdf', file_data: `data:application/pdf;base64,${pdf.toString('base64')}` },
  };
}
