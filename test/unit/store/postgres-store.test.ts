import { describe, expect, it } from 'vitest';
import { createStore } from '../../../src/store/index.js';
import { useScratchDatabase } from '../../contracts/scratch-postgres.js';
import { describeStoreContract } from '../../contracts/store-contract.js';

const scratch = await useScratchDatabase();
const up = scratch.up;
const skip = up ? undefined : 'PostgreSQL is not running on 127.0.0.1:5432';

describeStoreContract('postgres', () => createStore({ url: scratch.url(), dataDir: '.' }), { skip });

describe.skipIf(!up)(`postgres store${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('decides a compare-and-set exactly once between two processes (two pools), also for a key that does not exist yet', async () => {
    const first = await createStore({ url: scratch.url(), dataDir: '.' });
    const second = await createStore({ url: scratch.url(), dataDir: '.' });
    const winners: string[] = [];
    const claim = (store: typeof first, who: string) =>
      store.namespace<string>('claims').update('leader', (current) => {
        if (current !== undefined) return current;
        winners.push(who);
        return who;
      });
    await Promise.all([...Array.from({ length: 10 }, (_, index) => claim(first, `a${index}`)), ...Array.from({ length: 10 }, (_, index) => claim(second, `b${index}`))]);
    expect(winners).toHaveLength(1);
    expect(await second.namespace<string>('claims').get('leader')).toBe(winners[0]);
    // Counters across both: no increment is lost.
    await Promise.all([...Array.from({ length: 20 }, () => first.namespace<number>('count').update('n', (value) => (value ?? 0) + 1)), ...Array.from({ length: 20 }, () => second.namespace<number>('count').update('n', (value) => (value ?? 0) + 1))]);
    expect(await first.namespace<number>('count').get('n')).toBe(40);
    await first.close();
    await second.close();
  });

  it('updates keys and values holding quotes, backslashes, dollar quotes, semicolons and any Unicode as they are', async () => {
    const store = await createStore({ url: scratch.url(), dataDir: '.' });
    const awkward = `it's a \\ back'slash; $$ $tag$ "quoted" \n 你好 🙂 E'x' --comment`;
    const namespace = store.namespace<{ readonly text: string; readonly count: number }>(`odd'name;${awkward}`);
    await namespace.update(awkward, () => ({ text: awkward, count: 1 }));
    await namespace.update(awkward, (current) => (current ? { ...current, count: current.count + 1 } : current), 60_000);
    expect(await namespace.get(awkward)).toEqual({ text: awkward, count: 2 });
    expect(await namespace.update(awkward, () => undefined)).toBeUndefined();
    expect(await namespace.get(awkward)).toBeUndefined();
    await store.close();
  });

  it('refuses an unreachable server with one clear error instead of hanging', async () => {
    await expect(createStore({ url: 'postgres://postgres@127.0.0.1:1/none', dataDir: '.', probeTimeoutMs: 1000 })).rejects.toThrow(/The store \(postgres .*\) is not usable/);
  });
});
