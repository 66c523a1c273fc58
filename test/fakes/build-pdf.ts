/** One content stream: its bytes as stored, and whether they are deflated (`/Filter /FlateDecode`). */
export type PdfContent = { readonly bytes: Buffer; readonly deflated?: boolean };

/**
 * A PDF laid out the way a PDF writer does (objects, xref, trailer), one page per entry of `pages`, every page
 * on a Helvetica font `/F1`. Pages given the same content object share one stream, so a document of 100,000
 * pages stays a few MB.
 */
export function buildPdf(pages: readonly PdfContent[]): Buffer {
  const contentNumbers = new Map<PdfContent, number>();
  const firstPage = 4;
  let next = firstPage + pages.length;
  for (const content of pages) if (!contentNumbers.has(content)) contentNumbers.set(content, next++);
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(`<< /Type /Pages /Kids [${pages.map((_, index) => `${firstPage + index} 0 R`).join(' ')}] /Count ${pages.length} >>`),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    ...pages.map((content) => Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contentNumbers.get(content)} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`)),
    ...[...contentNumbers.keys()].map((content) =>
      Buffer.concat([Buffer.from(`<< /Length ${content.bytes.length}${content.deflated ? ' /Filter /FlateDecode' : ''} >>\nstream\n`), content.bytes, Buffer.from('\nendstream')]),
    ),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  for (const [index, object] of objects.entries()) {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    parts.push(part);
    length += part.length;
  }
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** A content stream that shows `text` at the top left of the page. */
export function textContent(text: string): PdfContent {
  const escaped = text.replace(/[\\()]/g, (character) => `\\${character}`);
  return { bytes: Buffer.from(`BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET`, 'latin1') };
}
