import { deflateSync } from 'node:zlib';

/**
 * A one-page PDF that is slow to read and small to send: its content stream is `text` followed by `operations`
 * empty save/restore pairs (`q Q`), deflated. Each pair is parsed while the text layer is extracted, so two
 * million take seconds on any machine (about 6 s here, unpdf in the main thread) from a file of about 10 kB,
 * and it stays one page with one short line of text, under any page or character limit.
 */
export function createSlowPdf(text: string, operations = 2_000_000): Buffer {
  const escaped = text.replace(/[\\()]/g, (character) => `\\${character}`);
  const content = deflateSync(Buffer.from(`BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET\n${'q Q\n'.repeat(operations)}`, 'latin1'));
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    content,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  const push = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  for (const [index, object] of objects.entries()) {
    offsets.push(length);
    if (typeof object === 'string') push(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`, 'latin1'));
    else {
      push(Buffer.from(`${index + 1} 0 obj\n<< /Length ${object.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'));
      push(object);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  }
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  push(Buffer.from(`${xref}trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
