import { afterEach, describe, expect, it } from 'vitest';
import { createReplayGuard } from '../../../src/registry/replay-guard.js';
import type { ToolResult } from '../../../src/registry/tool-outcome.js';
import { createStore } from '../../../src/store/create-store.js';
import { createTemporaryFolder } from './registry-fixtures.js';

const ok = (output: string): ToolResult => ({ ok: true, output, metadata: {} });

let folder: ReturnType<typeof createTemporaryFolder> | undefined;
afterEach(() => folder?.remove());

describe('createReplayGuard', () => {
  it('finds what it remembered, and nothing else', async () => {
    const guard = createReplayGuard({});
    await guard.remember('k1', ok('first'));
    expect(await guard.find('k1')).toEqual(ok('first'));
    expect(await guard.find('k2')).toBeUndefined();
  });

  it('forgets the least recently used key past its capacity (memory only)', async () => {
    const guard = createReplayGuard({ capacity: 2 });
    await guard.remember('a', ok('a'));
    await guard.remember('b', ok('b'));
    await guard.find('a');
    await guard.remember('c', ok('c'));
    expect(await guard.find('b')).toBeUndefined();
    expect(await guard.find('a')).toEqual(ok('a'));
    expect(await guard.find('c')).toEqual(ok('c'));
  });

  it('falls back to the store for keys the memory dropped or never saw', async () => {
    folder = createTemporaryFolder('replay');
    const store = await createStore({ dataDir: folder.path });
    const space = store.namespace<ToolResult>('idempotency');
    const first = createReplayGuard({ store: space, capacity: 1 });
    await first.remember('a', ok('a'));
    await first.remember('b', ok('b'));
    expect(await first.find('a')).toEqual(ok('a'));
    const second = createReplayGuard({ store: space });
    expect(await second.find('b')).toEqual(ok('b'));
    await store.close();
  });

  it('looks in memory only when asked (a trace that began in this process), and in the store otherwise', async () => {
    folder = createTemporaryFolder('replay-memory-only');
    const store = await createStore({ dataDir: folder.path });
    const space = store.namespace<ToolResult>('idempotency');
    await createReplayGuard({ store: space }).remember('earlier-process', ok('done before the restart'));
    const restarted = createReplayGuard({ store: space });
    expect(await restarted.find('earlier-process', { memoryOnly: true })).toBeUndefined();
    expect(await restarted.find('earlier-process')).toEqual(ok('done before the restart'));
    await restarted.remember('this-process', ok('done now'));
    expect(await restarted.find('this-process', { memoryOnly: true })).toEqual(ok('done now'));
    await store.close();
  });

  it('flush waits for records written in the background, so a restart after it finds them', async () => {
    folder = createTemporaryFolder('replay-flush');
    const store = await createStore({ dataDir: folder.path });
    const space = store.namespace<ToolResult>('idempotency');
    const first = createReplayGuard({ store: space });
    const writes = Array.from({ length: 20 }, (_, index) => first.remember(`key-${index}`, ok(`result ${index}`)));
    await first.flush();
    const restarted = createReplayGuard({ store: space });
    expect(await restarted.find('key-19')).toEqual(ok('result 19'));
    await Promise.all(writes);
    await store.close();
  });

  it('lets stored results expire after the ttl', async () => {
    folder = createTemporaryFolder('replay-ttl');
    const store = await createStore({ dataDir: folder.path });
    const space = store.namespace<ToolResult>('idempotency');
    await createReplayGuard({ store: space, ttlMs: 1 }).remember('gone', ok('x'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await createReplayGuard({ store: space }).find('gone')).toBeUndefined();
    await store.close();
  });
});
