import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EchoError } from '../../../src/errors/echo-error.js';
import { createStoreGuard } from '../../../src/store/create-store-guard.js';

/** A call that settles only when told to. */
function pendingCall<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { work: () => promise, resolve, reject };
}

const codeOf = (error: unknown) => (error instanceof EchoError ? error.code : String(error));

describe('createStoreGuard', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers what the call answers, and stays ok', async () => {
    const guard = createStoreGuard({ description: 'test', operationTimeoutMs: 1000 });
    await expect(guard.run('reading', async () => 42)).resolves.toBe(42);
    expect(guard.health()).toEqual({ state: 'ok', errors: 0 });
    guard.dispose();
  });

  it('turns a failed call into store-write-failed, marks the store degraded, and ok again after the next success', async () => {
    const failures: string[] = [];
    const guard = createStoreGuard({ description: 'test', operationTimeoutMs: 1000, onError: (error) => failures.push(error.code) });
    await expect(guard.run('saving sessions', () => Promise.reject(new Error('disk full')))).rejects.toSatisfy((error) => codeOf(error) === 'store-write-failed');
    expect(guard.health()).toMatchObject({ state: 'degraded', errors: 1, lastError: expect.stringContaining('saving sessions: disk full') });
    await guard.run('reading', async () => 1);
    expect(guard.health()).toEqual({ state: 'ok', errors: 1 });
    expect(failures).toEqual(['store-write-failed']);
    guard.dispose();
  });

  it('times out only the calls past their deadline, in any order of starting and finishing, each once', async () => {
    const guard = createStoreGuard({ description: 'test', operationTimeoutMs: 1000 });
    const slow = pendingCall<string>();
    const quick = pendingCall<string>();
    const late = pendingCall<string>();
    const check = pendingCall<string>();
    const outcomes: string[] = [];
    const track = (name: string, promise: Promise<string>) =>
      promise.then(
        (value) => outcomes.push(`${name}: ${value}`),
        (error: unknown) => outcomes.push(`${name}: ${codeOf(error)}`),
      );
    const all = [track('slow', guard.run('reading a', slow.work)), track('quick', guard.run('reading b', quick.work))];
    await vi.advanceTimersByTimeAsync(400);
    all.push(track('late', guard.run('reading c', late.work)), track('check', guard.run('answering a health check', check.work, 300)));
    quick.resolve('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toEqual(['quick: b']);
    // The health check's shorter timeout ends it first, though it started last.
    await vi.advanceTimersByTimeAsync(400);
    expect(outcomes).toEqual(['quick: b', 'check: store-timeout']);
    await vi.advanceTimersByTimeAsync(300);
    expect(outcomes).toEqual(['quick: b', 'check: store-timeout', 'slow: store-timeout']);
    // An answer after the timeout changes nothing; the call that started later still has time.
    slow.resolve('a');
    late.resolve('c');
    await Promise.all(all);
    expect(outcomes).toEqual(['quick: b', 'check: store-timeout', 'slow: store-timeout', 'late: c']);
    expect(guard.health()).toEqual({ state: 'ok', errors: 2 });
    guard.dispose();
  });

  it('says what the call was doing when it timed out', async () => {
    const guard = createStoreGuard({ description: 'sqlite echo.sqlite', operationTimeoutMs: 500 });
    const never = pendingCall<void>();
    const running = guard.run('updating usage', never.work);
    const settled = running.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(600);
    const error = await settled;
    expect(codeOf(error)).toBe('store-timeout');
    expect((error as Error).message).toBe('The store (sqlite echo.sqlite) did not answer within 0.5 s while updating usage.');
    guard.dispose();
  });

  it('guards a call that answers through callbacks the same way: answer, failure, a throw, a timeout', async () => {
    const guard = createStoreGuard({ description: 'test', operationTimeoutMs: 500 });
    await expect(guard.start<number>('reading', (resolve) => resolve(7))).resolves.toBe(7);
    await expect(guard.start('saving', (_resolve, reject) => reject(new Error('locked')))).rejects.toSatisfy((error) => codeOf(error) === 'store-write-failed');
    await expect(
      guard.start('saving', () => {
        throw new TypeError('Do not know how to serialize a BigInt');
      }),
    ).rejects.toSatisfy((error) => codeOf(error) === 'store-write-failed');
    let late: (value: string) => void = () => undefined;
    const waiting = guard.start<string>('reading', (resolve) => {
      late = resolve;
    });
    const settled = waiting.catch((error: unknown) => codeOf(error));
    await vi.advanceTimersByTimeAsync(600);
    late('too late');
    expect(await settled).toBe('store-timeout');
    expect(guard.health()).toMatchObject({ state: 'degraded', errors: 3 });
    guard.dispose();
  });
});
