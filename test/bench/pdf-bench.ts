import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPdfTextReader } from '../../src/media/extract-pdf-text.js';
import { buildPdf, textContent } from '../fakes/build-pdf.js';
import { median } from './bench-statistics.js';

/** Milliseconds to get the text of a small two-page PDF: in this process as before issue 24, and in a child process now. */
export type PdfFigures = {
  /** The first PDF of a process read in process: unpdf's import included (once per agent run). */
  readonly inProcessFirstMs: number;
  /** Later PDFs read in process (unpdf already loaded). */
  readonly inProcessMedianMs: number;
  /** Every PDF read out of process (a child per file: start, load unpdf, read, answer). */
  readonly outOfProcessMedianMs: number;
  readonly outOfProcessRunsMs: readonly number[];
};

/** Measures the cost of reading PDF text out of process against the in-process reading it replaced (same unpdf calls). */
export async function runPdfBench(options: { readonly runs: number }): Promise<PdfFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'echo-bench-pdf-'));
  try {
    const path = join(folder, 'invoice.pdf');
    writeFileSync(path, buildPdf([textContent('Invoice 42: total 17.50 EUR'), textContent('Paid on 2026-01-31, thank you.')]));
    // The code of extract-pdf-text.ts before issue 24: unpdf in this process, loaded on first use.
    const readInProcess = async () => {
      const started = performance.now();
      const { extractText, getDocumentProxy } = await import('unpdf');
      const document = await getDocumentProxy(new Uint8Array(await readFile(path)));
      const { text } = await extractText(document, { mergePages: true });
      await document.destroy();
      if (!text.includes('Invoice 42')) throw new Error('in-process reading lost the text');
      return performance.now() - started;
    };
    const inProcessFirstMs = await readInProcess();
    const inProcess: number[] = [];
    for (let run = 0; run < options.runs; run += 1) inProcess.push(await readInProcess());

    const reader = createPdfTextReader({ maxPages: 500, timeoutSeconds: 30, maxMemoryMb: 512 });
    const readOutOfProcess = async () => {
      const started = performance.now();
      const result = await reader.extract({ path, maxChars: 20_000 });
      if (!result.ok || !result.text.includes('Invoice 42')) throw new Error(`out-of-process reading failed: ${JSON.stringify(result)}`);
      return performance.now() - started;
    };
    await readOutOfProcess();
    const outOfProcess: number[] = [];
    for (let run = 0; run < options.runs; run += 1) outOfProcess.push(await readOutOfProcess());
    return { inProcessFirstMs, inProcessMedianMs: median(inProcess), outOfProcessMedianMs: median(outOfProcess), outOfProcessRunsMs: outOfProcess };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
