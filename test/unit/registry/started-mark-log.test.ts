import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EchoError } from '../../../src/errors/echo-error.js';
import { createReplayGuard, isStartedMarker, type ReplayGuard } from '../../../src/registry/replay-guard.js';
import { openStartedMarkLog, type StartedMarkLog } from '../../../src/registry/started-mark-log.js';
import type { ToolResult } from '../../../src/registry/tool-outcome.js';
import { createStore } from '../../../src/store/create-store.js';
import type { KeyValueNamespace, Store } from '../../../src/store/key-value-namespace.js';
import { createTemporaryFolder } from './registry-fixtures.js';

const ok = (output: string): ToolResult => ({ ok: true, output, metadata: {} });

let folder: ReturnType<typeof createTemporaryFolder> | undefined;
let store: Store | undefined;
const logs: StartedMarkLog[] = [];
afterEach(async () => {
  for (const log of logs.splice(0)) log.close();
  await store?.close();
  store = undefined;
  folder?.remove();
});

/** A SQLite store in a fresh folder, its idempotency namespace counting writes, and the mark file's path beside it. */
async function openWorld(name: string): Promise<{ space: KeyValueNamespace<ToolResult>; writes: string[]; markFile: string }> {
  folder = createTemporaryFolder(name);
  store = await createStore({ dataDir: folder.path });
  const real = store.namespace<ToolResult>('idempotency');
  const writes: string[] = [];
  const space: KeyValueNamespace<ToolResult> = {
    ...real,
    set: (key, value, ttlMs) => {
      writes.push(key);
      return real.set(key, value, ttlMs);
    },
  };
  expect(store.localFile).toBe(join(folder.path, 'echo.sqlite'));
  return { space, writes, markFile: `${store.localFile}-started` };
}

/** A process's guard: the mark file as it finds it, and what an earlier process left moved into the store. */
async function startProcess(space: KeyValueNamespace<ToolResult>, markFile: string, options: { readonly minFreeBytes?: number; readonly capacity?: number } = {}): Promise<ReplayGuard> {
  const markLog = openStartedMarkLog({ file: markFile, ...(options.minFreeBytes === undefined ? {} : { minFreeBytes: options.minFreeBytes }) });
  logs.push(markLog);
  const guard = createReplayGuard({ store: space, markLog, ...(options.capacity === undefined ? {} : { capacity: options.capacity }) });
  await guard.recover();
  return guard;
}

describe('started marks in a file beside the SQLite store', () => {
  it('writes the mark before the call runs without a store round trip', async () => {
    const { space, writes, markFile } = await openWorld('marks-no-round-trip');
    const guard = await startProcess(space, markFile);
    await guard.markStarted('call-1');
    expect(writes).toEqual([]);
    expect(readFileSync(markFile, 'utf8')).toMatch(/^\d+ call-1\n$/);
    expect(isStartedMarker((await guard.find('call-1', { memoryOnly: true })) as ToolResult)).toBe(true);
  });

  it('after a crash, a call that began and has no result is found as begun, moved into the store', async () => {
    const { space, markFile } = await openWorld('marks-crash');
    const dead = await startProcess(space, markFile);
    await dead.markStarted('died-while-running');
    await dead.markStarted('finished');
    await dead.remember('finished', ok('done'));
    await dead.flush();

    const restarted = await startProcess(space, markFile);
    expect(isStartedMarker((await restarted.find('died-while-running')) as ToolResult)).toBe(true);
    expect(await restarted.find('finished')).toEqual(ok('done'));
    // Moved: the store alone answers now, for a process that never read the file.
    const third = createReplayGuard({ store: space });
    expect(isStartedMarker((await third.find('died-while-running')) as ToolResult)).toBe(true);
    expect(await third.find('finished')).toEqual(ok('done'));
  });

  it('answers from the file while the result is not in the store, even when memory forgot the key', async () => {
    const { space, markFile } = await openWorld('marks-pending');
    const guard = await startProcess(space, markFile, { capacity: 1 });
    await guard.markStarted('running');
    await guard.markStarted('pushes-running-out-of-memory');
    expect(isStartedMarker((await guard.find('running')) as ToolResult)).toBe(true);
    expect(isStartedMarker((await guard.find('running', { memoryOnly: true })) as ToolResult)).toBe(true);
  });

  it('refuses the mark when the disk holding the store is full, so the call does not run', async () => {
    const { space, markFile } = await openWorld('marks-full');
    const guard = await startProcess(space, markFile, { minFreeBytes: Number.MAX_SAFE_INTEGER });
    const refused = await guard.markStarted('no-room').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(EchoError);
    expect((refused as EchoError).code).toBe('store-write-failed');
    expect(await guard.find('no-room')).toBeUndefined();
    expect(readFileSync(markFile, 'utf8')).toBe('');
  });

  it('stays small: the file is emptied once every mark in it is settled', async () => {
    const { space, markFile } = await openWorld('marks-small');
    const guard = await startProcess(space, markFile);
    for (let index = 0; index < 1500; index += 1) {
      const key = `call-${index}-${'x'.repeat(40)}`;
      await guard.markStarted(key);
      await guard.remember(key, ok(String(index)));
    }
    await guard.flush();
    // 1,500 lines of about 70 bytes would be over 100 KiB; it was emptied past 64 KiB.
    expect(statSync(markFile).size).toBeLessThan(64 * 1024);
    guard.close();
    logs.pop();
    expect(statSync(markFile).size).toBe(0);
    expect(existsSync(markFile)).toBe(true);
  });
});
