import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPdfTextReader, type PdfLimits } from '../../../src/media/extract-pdf-text.js';
import { buildPdf, textContent } from '../../fakes/build-pdf.js';
import { findProcesses } from '../../fakes/find-processes.js';
import { createManyPagesPdf } from '../../fakes/pdf-bombs.js';

const folder = mkdtempSync(join(tmpdir(), 'echo-pdf-text-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const defaults: PdfLimits = { maxPages: 500, timeoutSeconds: 30, maxMemoryMb: 512 };
let written = 0;
function stored(bytes: Buffer): string {
  written += 1;
  const path = join(folder, `file-${written}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

describe('PDF text, read in a child process within limits', () => {
  it('a normal PDF yields its text, every page, with the page count', async () => {
    const reader = createPdfTextReader(defaults);
    const path = stored(buildPdf([textContent('Invoice 42: total 17.50 EUR'), textContent('Page two (signed)')]));
    expect(await reader.extract({ path, maxChars: 20_000 })).toEqual({ ok: true, text: 'Invoice 42: total 17.50 EUR\nPage two (signed)', pages: 2, pagesRead: 2 });
  });

  it('stops reading at the page that takes the text past the character budget', async () => {
    const reader = createPdfTextReader(defaults);
    const path = stored(buildPdf(Array.from({ length: 40 }, (_, index) => textContent(`page ${index + 1} ${'x'.repeat(90)}`))));
    const result = await reader.extract({ path, maxChars: 250 });
    expect(result).toMatchObject({ ok: true, pages: 40, pagesRead: 3 });
    expect(result.ok && result.text.startsWith('page 1 x')).toBe(true);
  });

  it('refuses a document over the page limit without reading a page', async () => {
    const reader = createPdfTextReader({ ...defaults, maxPages: 10 });
    expect(await reader.extract({ path: stored(createManyPagesPdf(11)), maxChars: 20_000 })).toEqual({ ok: false, reason: 'too-many-pages', pages: 11, error: '11 pages, over the limit of 10' });
  });

  it('kills a reader past the wall-clock limit, and one whose turn is aborted', async () => {
    const path = stored(buildPdf([textContent('slow')]));
    // No child starts, loads pdf.js and answers in 20 ms.
    expect(await createPdfTextReader({ ...defaults, timeoutSeconds: 0.02 }).extract({ path, maxChars: 100 })).toEqual({ ok: false, reason: 'timeout', error: 'not read within 0.02 s' });
    const turn = new AbortController();
    const reading = createPdfTextReader(defaults).extract({ path, maxChars: 100, signal: turn.signal });
    turn.abort();
    expect(await reading).toMatchObject({ ok: false, reason: 'cancelled' });
  });

  it('a file that is not a PDF is unreadable, as a value', async () => {
    const result = await createPdfTextReader(defaults).extract({ path: stored(Buffer.from('%PDF-1.4\nnothing else')), maxChars: 100 });
    expect(result).toMatchObject({ ok: false, reason: 'unreadable' });
  });

  it('stop() kills the readers still running (the agent is stopping)', async () => {
    const reader = createPdfTextReader(defaults);
    const reading = reader.extract({ path: stored(buildPdf([textContent('never read')])), maxChars: 100 });
    reader.stop();
    expect(await reading).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await findProcesses('read-pdf-text-child')).toEqual([]);
  });
});
