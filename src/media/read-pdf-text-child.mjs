// @ts-check
/**
 * The child process that reads a PDF's text for `extract-pdf-text.ts`: untrusted bytes are parsed here, never in
 * the agent, so a PDF that exhausts memory or crashes V8 takes down only this process. Plain JavaScript so that it
 * runs from the sources (tests) as from dist/ (`npm start`); tsc copies it beside the compiled parent.
 *
 * It gets one request over IPC (`{ path, maxPages, maxChars, watch }`), answers once (a `PdfChildAnswer`) and exits.
 * A watchdog thread keeps running while the main thread is stuck in a synchronous loop (an inflating stream): past
 * the memory ceiling or the deadline, or once the agent is gone (this process re-parented), it writes `<marker><reason>` to
 * stderr and kills the process.
 */
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

const watchdogSource = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const check = () => {
  let reason;
  if (process.ppid !== workerData.parent) reason = 'orphaned';
  else if (process.memoryUsage.rss() > workerData.maxRssBytes) reason = 'memory';
  else if (Date.now() > workerData.deadline) reason = 'timeout';
  if (reason === undefined) return;
  try { writeSync(2, workerData.marker + reason + '\\n'); } finally { process.kill(process.pid, 'SIGKILL'); }
};
setInterval(check, workerData.everyMs);
`;

/**
 * @typedef {{ readonly path: string; readonly maxPages: number; readonly maxChars: number; readonly watch: { readonly marker: string; readonly parent: number; readonly maxRssBytes: number; readonly deadline: number; readonly everyMs: number } }} PdfChildRequest
 * @typedef {{ readonly ok: true; readonly text: string; readonly pages: number; readonly pagesRead: number } | { readonly ok: false; readonly reason: 'too-many-pages' | 'too-large' | 'unreadable'; readonly pages?: number; readonly error: string }} PdfChildAnswer
 */

/** unpdf's whitespace clean-up of merged page text; applying it per page and again to the join gives the same text. */
const normalize = (/** @type {string} */ text) =>
  text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n');

/**
 * Reads the text page by page: refuses a document over `maxPages`, and stops after the page that takes the text past
 * `maxChars` (the caller's budget), so a long document costs only the pages the model will see.
 * @param {PdfChildRequest} request
 * @returns {Promise<PdfChildAnswer>}
 */
async function readPdfText(request) {
  const { getDocumentProxy } = await import('unpdf');
  const document = await getDocumentProxy(new Uint8Array(await readFile(request.path)));
  try {
    const pages = document.numPages;
    if (pages > request.maxPages) return { ok: false, reason: 'too-many-pages', pages, error: `${pages} pages, over the limit of ${request.maxPages}` };
    /** @type {string[]} */
    const texts = [];
    let chars = 0;
    while (texts.length < pages && chars <= request.maxChars) {
      const page = await document.getPage(texts.length + 1);
      const content = await page.getTextContent();
      const text = normalize(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      page.cleanup();
      texts.push(text);
      chars += text.length + 1;
    }
    return { ok: true, text: normalize(texts.join('\n')).trim(), pages, pagesRead: texts.length };
  } finally {
    await document.destroy();
  }
}

process.once('message', (/** @type {PdfChildRequest} */ request) => {
  const watchdog = new Worker(watchdogSource, { eval: true, workerData: request.watch, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 } });
  watchdog.unref();
  readPdfText(request)
    .catch((/** @type {unknown} */ error) =>
      /** @type {PdfChildAnswer} */ ({
        ok: false,
        // V8 refuses an array or string past its size limits with a RangeError: the document expands past what can be held.
        reason: error instanceof RangeError ? 'too-large' : 'unreadable',
        error: error instanceof Error ? error.message.slice(0, 200) : 'unreadable PDF',
      }),
    )
    .then((answer) => process.send?.(answer, undefined, {}, () => process.exit(0)));
});
