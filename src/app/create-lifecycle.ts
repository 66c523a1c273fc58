import type { Logger } from '../logging/create-logger.js';

/** A close step: what it closes (for the log) and how. */
type Closer = { readonly what: string; readonly close: () => unknown };

/** What was opened, to be closed in reverse order: on a failed build, on a thrown error and on stop. */
export type Lifecycle = {
  /** Registers how to close what was just opened; closers run last-in, first-out. */
  defer(what: string, close: () => unknown): void;
  /**
   * Runs a build step: a failure value (`ok: false`) or a thrown error closes everything deferred so far, in reverse
   * order, and is handed on (returned or rethrown); a success leaves it open.
   */
  guard<T extends { readonly ok: boolean }>(build: () => Promise<T>): Promise<T>;
  /** Closes everything deferred, in reverse order, each once; a failing step is logged and the rest still run. Throws the first failure after all ran. */
  close(): Promise<void>;
};

/** Creates a lifecycle: the one place the composition root closes what it opened. */
export function createLifecycle(options: { readonly logger: Logger }): Lifecycle {
  const closers: Closer[] = [];

  async function close(): Promise<void> {
    let first: { readonly error: unknown } | undefined;
    for (let closer = closers.pop(); closer !== undefined; closer = closers.pop()) {
      try {
        await closer.close();
      } catch (error) {
        options.logger.warn({ err: error }, `${closer.what} did not close cleanly`);
        first ??= { error };
      }
    }
    if (first) throw first.error;
  }

  return {
    defer(what, closeStep) {
      closers.push({ what, close: closeStep });
    },
    async guard<T extends { readonly ok: boolean }>(build: () => Promise<T>): Promise<T> {
      let built: T;
      try {
        built = await build();
      } catch (error) {
        // The build's own error is the one worth reporting; a close failure is only logged.
        await close().catch(() => undefined);
        throw error;
      }
      if (!built.ok) await close().catch(() => undefined);
      return built;
    },
    close,
  };
}
