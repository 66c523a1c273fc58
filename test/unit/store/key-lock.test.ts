import { describe, expect, it } from 'vitest';
import { createKeyLock } from '../../../src/store/key-lock.js';

/** Work that finishes when told to, noting when it started and ended. */
function step(log: string[], name: string) {
  let finish: (fail?: boolean) => void = () => undefined;
  const work = () => {
    log.push(`${name} starts`);
    return new Promise<string>((resolve, reject) => {
      finish = (fail) => {
        log.push(`${name} ends`);
        if (fail) reject(new Error(name));
        else resolve(name);
      };
    });
  };
  return { work, finish: (fail?: boolean) => finish(fail) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createKeyLock', () => {
  it('runs work on one key one after the other, and work on other keys beside it', async () => {
    const lock = createKeyLock();
    const log: string[] = [];
    const [first, second, other] = [step(log, 'a1'), step(log, 'a2'), step(log, 'b1')];
    const results = [lock('a', first.work), lock('a', second.work), lock('b', other.work)];
    await settle();
    expect(log).toEqual(['a1 starts', 'b1 starts']);
    other.finish();
    first.finish();
    await settle();
    expect(log).toEqual(['a1 starts', 'b1 starts', 'b1 ends', 'a1 ends', 'a2 starts']);
    second.finish();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'b1']);
  });

  it('starts the next work after one that failed, and gives each caller its own outcome', async () => {
    const lock = createKeyLock();
    const log: string[] = [];
    const [failing, next] = [step(log, 'x1'), step(log, 'x2')];
    const failed = lock('x', failing.work).catch((error: Error) => `failed: ${error.message}`);
    const after = lock('x', next.work);
    await settle();
    failing.finish(true);
    await settle();
    next.finish();
    expect([await failed, await after]).toEqual(['failed: x1', 'x2']);
    expect(log).toEqual(['x1 starts', 'x1 ends', 'x2 starts', 'x2 ends']);
  });

  it('takes a key again once all its work is done', async () => {
    const lock = createKeyLock();
    expect(await lock('k', async () => 1)).toBe(1);
    await settle();
    expect(await lock('k', async () => 2)).toBe(2);
    // Work that throws before it returns a promise fails its own call only.
    await expect(lock('k', () => { throw new Error('sync'); })).rejects.toThrow('sync');
    expect(await lock('k', async () => 3)).toBe(3);
  });
});
