import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Why a PDF's text could not be read: a limit (memory, time, pages), the reader process dying, a broken file, or the turn stopping. */
export type PdfFailure = 'too-large' | 'timeout' | 'too-many-pages' | 'crashed' | 'unreadable' | 'cancelled';

/** The text of a PDF, or why none could be read (a value, never a throw). `pagesRead < pages`: reading stopped at the character budget. */
export type PdfText =
  | { readonly ok: true; readonly text: string; readonly pages: number; readonly pagesRead: number }
  | { readonly ok: false; readonly reason: PdfFailure; readonly error: string };

/** The limits of `media.pdf` in the config. */
export type PdfLimits = {
  readonly maxPages: number;
  readonly timeoutSeconds: number;
  readonly maxMemoryMb: number;
};

/** Reads PDF text out of process; `stop` kills every reader still running (the agent is stopping). */
export type PdfTextReader = {
  readonly limits: PdfLimits;
  extract(input: { readonly path: string; readonly maxChars: number; readonly signal?: AbortSignal }): Promise<PdfText>;
  stop(): void;
};

// By its folder's name: the same path from this module's own folder and from the bundle's (dist/src/app/, scripts/bundle-app.mjs).
const childEntry = fileURLToPath(new URL('../media/read-pdf-text-child.mjs', import.meta.url));
const limitMarker = 'echo-pdf-limit:';
const stderrKeptChars = 8192;
/** How often the child's watchdog looks at its memory and its parent. */
const watchEveryMs = 25;
/** V8's own last words when a heap or an array cannot grow (exit 133 or 134). */
const outOfMemoryPattern = /heap out of memory|invalid size error|invalid array length|allocation failed|out of memory/i;

/**
 * Creates the reader: each PDF is parsed by unpdf in a child process of its own (`read-pdf-text-child.mjs`, forked
 * with `--max-old-space-size`), which a watchdog thread inside it kills past `maxMemoryMb` of resident memory and the
 * parent kills (SIGKILL) past `timeoutSeconds`, when the turn is aborted, and on `stop`; it also dies once the agent
 * is gone. Over `maxPages` pages, the document is refused; text is read page by page until `maxChars`. A bomb, a
 * timeout or a crash comes back as a failure value, and the agent stays up.
 */
export function createPdfTextReader(limits: PdfLimits): PdfTextReader {
  const running = new Map<ChildProcess, (reason: PdfFailure) => void>();
  const timeoutMs = limits.timeoutSeconds * 1000;
  return {
    limits,
    extract({ path, maxChars, signal }) {
      if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'cancelled', error: 'the turn was stopped' });
      return new Promise<PdfText>((resolve) => {
        const child = fork(childEntry, [], {
          execArgv: [`--max-old-space-size=${limits.maxMemoryMb}`],
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          // Nothing of the agent's environment (keys, tokens) reaches the process that parses untrusted bytes.
          env: {},
          serialization: 'advanced',
        });
        let stderr = '';
        let answer: PdfText | undefined;
        let killedFor: PdfFailure | undefined;
        const kill = (reason: PdfFailure) => {
          killedFor ??= reason;
          child.kill('SIGKILL');
        };
        running.set(child, kill);
        const timer = setTimeout(() => kill('timeout'), timeoutMs);
        const onAbort = () => kill('cancelled');
        signal?.addEventListener('abort', onAbort, { once: true });
        child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
          stderr = (stderr + chunk).slice(-stderrKeptChars);
        });
        child.on('message', (message) => {
          answer = message as PdfText;
        });
        const settle = (result: PdfText) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          running.delete(child);
          resolve(result);
        };
        // A process that could not start emits 'error' and perhaps never 'close'.
        child.on('error', (error) => {
          kill('crashed');
          settle({ ok: false, reason: 'crashed', error: `the PDF reader could not run (${error.message.slice(0, 100)})` });
        });
        child.on('close', (code, exitSignal) => settle(answer && killedFor === undefined ? answer : failureOf({ killedFor, stderr, code, exitSignal, limits })));
        // The watchdog's own deadline is a backstop for when this process cannot kill the child (it is gone).
        const watch = { marker: limitMarker, parent: process.pid, maxRssBytes: limits.maxMemoryMb * 1024 * 1024, deadline: Date.now() + timeoutMs + 5000, everyMs: watchEveryMs };
        child.send({ path, maxPages: limits.maxPages, maxChars: Math.max(0, maxChars), watch }, (error) => {
          if (error) kill('crashed');
        });
      });
    },
    stop() {
      for (const kill of running.values()) kill('cancelled');
    },
  };
}

function failureOf(input: {
  readonly killedFor: PdfFailure | undefined;
  readonly stderr: string;
  readonly code: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  readonly limits: PdfLimits;
}): PdfText {
  const { limits } = input;
  const watchdog = input.stderr.match(new RegExp(`${limitMarker}(\\w+)`))?.[1];
  if (input.killedFor === 'timeout' || watchdog === 'timeout') return { ok: false, reason: 'timeout', error: `not read within ${limits.timeoutSeconds} s` };
  if (input.killedFor === 'cancelled') return { ok: false, reason: 'cancelled', error: 'the turn was stopped' };
  if (watchdog === 'memory' || outOfMemoryPattern.test(input.stderr)) return { ok: false, reason: 'too-large', error: `expands past the ${limits.maxMemoryMb} MB memory limit` };
  return { ok: false, reason: 'crashed', error: `the PDF reader stopped (${input.exitSignal ?? `exit code ${input.code}`})` };
}
