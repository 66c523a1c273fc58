import { createConnection } from 'node:net';
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
