import { describe, expect, it } from 'vitest';
import { createStore } from '../../../src/store/index.js';
import { describeStoreContract } from '../../contracts/store-contract.js';
import { isPortOpen } from '../../fakes/is-port-open.js';

const redisUrl = 'redis://127.0.0.1:6379';

const isRedisUp = () => isPortOpen(6379);

const redisUp = await isRedisUp();
if (!redisUp) console.warn('Redis is not running on 127.0.0.1:6379: the Redis store contract is skipped.');
describeStoreContract('redis', () => createStore({ dataDir: '/tmp', url: redisUrl }), redisUp ? {} : { skip: 'Redis is not running on 127.0.0.1:6379' });

describe('redis store start-up', () => {
  it('refuses an unreachable Redis with one clear error instead of hanging', async () => {
    // Nothing listens on port 6390 here; keyv's Redis client would retry forever.
    await expect(createStore({ dataDir: '/tmp', url: 'redis://127.0.0.1:6390', probeTimeoutMs: 300 })).rejects.toThrow(/did not answer within 0.3 s: is it running and reachable\?/);
  });
});
