import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../../src/store/index.js';
import { describeStoreContract } from '../../contracts/store-contract.js';

const redisUrl = 'redis://127.0.0.1:6379';

async function isRedisUp(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: 6379 });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const redisUp = await isRedisUp();
if (!redisUp) console.warn('Redis is not running on 127.0.0.1:6379: the Redis store contract is skipped.');
describeStoreContract('redis', () => createStore({ dataDir: '/tmp', url: redisUrl }), redisUp ? {} : { skip: 'Redis is not running on 127.0.0.1:6379' });

describe('redis store start-up', () => {
  it('refuses an unreachable Redis with one clear error instead of hanging', async () => {
    // Nothing listens on port 6390 here; keyv's Redis client would retry forever.
    await expect(createStore({ dataDir: '/tmp', url: 'redis://127.0.0.1:6390', probeTimeoutMs: 300 })).rejects.toThrow(/did not answer within 0.3 s: is it running and reachable\?/);
  });
});
