import { describe, expect, it } from 'vitest';
import { createBatcher } from '../../../src/store/create-batcher.js';

describe('createBatcher (group commit)', () => {
  it('sends a request at once when idle, groups the ones made while the backend is busy, and answers each in order', async () => {
    const batches: number[][] = [];
    let release: (() => void) | undefined;
    const run = async (requests: readonly number[]) => {
      batches.push([...requests]);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return requests.map((request) => request * 10);
    };
    const send = createBatcher(run, { maxInFlight: 1 });
    const first = send(1);
    const rest = [send(2), send(3), send(4)];
    expect(batches).toEqual([[1]]);
    release?.();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('fails every request a failed batch carried, and goes on with the next', async () => {
    let calls = 0;
    const send = createBatcher(async (requests: readonly string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
      return requests.map(() => true);
    });
    await expect(send('a')).rejects.toThrow('disk full');
    expect(await send('b')).toBe(true);
  });

  it('answers an enqueued request through its callbacks, in the same batch as promised ones', async () => {
    const batches: string[][] = [];
    const send = createBatcher(async (requests: readonly string[]) => {
      batches.push([...requests]);
      if (requests.includes('bad')) throw new Error('refused');
      return requests.map((request) => request.toUpperCase());
    }, { maxInFlight: 1 });
    const answers: string[] = [];
    const first = send('a');
    const second = new Promise<void>((resolve) =>
      send.enqueue(
        'b',
        (answer) => {
          answers.push(answer);
          resolve();
        },
        () => resolve(),
      ),
    );
    const third = send('c');
    expect(await first).toBe('A');
    await second;
    expect(await third).toBe('C');
    expect(answers).toEqual(['B']);
    expect(batches).toEqual([['a'], ['b', 'c']]);
    const failure = await new Promise<unknown>((resolve) => send.enqueue('bad', () => resolve('answered'), resolve));
    expect(String(failure)).toContain('refused');
  });
});
