import { readFile } from 'node:fs/promises';

/** The text of a PDF, or why none could be read. */
export type PdfText = { readonly ok: true; readonly text: string; readonly pages: number } | { readonly ok: false; readonly error: string };

/** Extracts the text layer of a stored PDF with unpdf (loaded on first use: most turns carry no PDF). Scanned pages have none. */
export async function extractPdfText(path: string): Promise<PdfText> {
  try {
    const { extractText, getDocumentProxy } = await import('unpdf');
    const document = await getDocumentProxy(new Uint8Array(await readFile(path)));
    const { text, totalPages } = await extractText(document, { mergePages: true });
    await document.destroy();
    return { ok: true, text: text.trim(), pages: totalPages };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message.slice(0, 200) : 'unreadable PDF' };
  }
}
