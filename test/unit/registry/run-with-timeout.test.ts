import { describe, expect, it } from 'vitest';
import { runWithTimeout } from '../../../src/registry/run-with-timeout.js';

describe('runWithTimeout', () => {
  it('returns the value of work that finishes in time', async () => {
    expect(await runWithTimeout(async () => 42, 1_000)).toEqual({ kind: 'done', value: 42 });
  });

  it('reports a rejection as threw', async () => {
    const error = new Error('boom');
    expect(await runWithTimeout(async () => Promise.reject(error), 1_000)).toEqual({ kind: 'threw', error });
  });

  it('reports a synchronous throw as threw', async () => {
    const result = await runWithTimeout(() => {
      throw new Error('sync');
    }, 1_000);
    expect(result).toMatchObject({ kind: 'threw', error: { message: 'sync' } });
  });

  it('resolves at the deadline even when the work never settles, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const result = await runWithTimeout((given) => {
      signal = given;
      return new Promise<never>(() => undefined);
    }, 5);
    expect(result).toEqual({ kind: 'timeout' });
    expect(signal?.aborted).toBe(true);
  });

  it('does not abort the signal of work that finished in time', async () => {
    let signal: AbortSignal | undefined;
    await runWithTimeout(async (given) => {
      signal = given;
      return 'ok';
    }, 1_000);
    expect(signal?.aborted).toBe(false);
  });

  it('passes an abort of the parent signal on to running work', async () => {
    const parent = new AbortController();
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const result = runWithTimeout(
      (signal) =>
        new Promise<unknown>((resolve) => {
          signal.addEventListener('abort', () => resolve(signal.reason));
          markStarted();
        }),
      60_000,
      parent.signal,
    );
    await started;
    parent.abort('shutting down');
    expect(await result).toEqual({ kind: 'done', value: 'shutting down' });
  });

  it('hands work an aborted signal when the parent was aborted before it started', async () => {
    const parent = new AbortController();
    parent.abort('too late');
    const result = await runWithTimeout(async (signal) => ({ aborted: signal.aborted, reason: signal.reason as unknown }), 60_000, parent.signal);
    expect(result).toEqual({ kind: 'done', value: { aborted: true, reason: 'too late' } });
  });
});
