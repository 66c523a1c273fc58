import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import { Keyv } from 'keyv';
import { EchoError } from '../errors/echo-error.js';
import { createKeyLock } from './key-lock.js';
import type { KeyValueNamespace, Store } from './key-value-namespace.js';

/** Where the store lives. */
export type StoreOptions = {
  /** Empty or undefined: SQLite file `echo.sqlite` in `dataDir`. `redis://...`: Redis. `memory:` for throwaway use. */
  readonly url?: string;
  readonly dataDir: string;
  /** How long the start-up round trip may take before the store counts as unreachable; default 5000. */
  readonly probeTimeoutMs?: number;
};

/** Values are plain JSON (no Buffers or BigInts are stored): JSON.stringify is several times faster than keyv's own serializer. */
const plainJson = { serialize: JSON.stringify, deserialize: JSON.parse } as const;

/** Opens the durable store: keyv over a SQLite file by default, Redis when the url says so. */
export async function createStore(options: StoreOptions): Promise<Store> {
  const url = options.url ?? '';
  let keyv: Keyv;
  let description: string;
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    // Loaded only when configured: SQLite users never pay for the Redis client at start-up.
    const { default: KeyvRedis } = await import('@keyv/redis');
    keyv = new Keyv({ store: new KeyvRedis(url), useKeyPrefix: false, ...plainJson });
    description = `redis ${url.replace(/\/\/[^@]*@/, '//***@')}`;
  } else if (url === 'memory:') {
    keyv = new Keyv();
    description = 'memory (nothing survives a restart)';
  } else if (url === '' || url.startsWith('sqlite://')) {
    const file = url === '' ? join(options.dataDir, 'echo.sqlite') : url.slice('sqlite://'.length);
    if (url === '') mkdirSync(options.dataDir, { recursive: true });
    const adapter = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 10_000 });
    // WAL lets reads run beside a write; synchronous=NORMAL syncs at checkpoints, not on every commit.
    // A crashed process loses nothing; a power cut may lose the last moments of writes, never corrupt the file.
    await adapter.query('PRAGMA journal_mode = WAL');
    await adapter.query('PRAGMA synchronous = NORMAL');
    keyv = new Keyv({ store: adapter, useKeyPrefix: false, ...plainJson });
    description = `sqlite ${file}`;
  } else {
    throw new EchoError('store-url-invalid', `storage.url must be empty, sqlite://FILE or redis://HOST:PORT (got a ${url.split(':')[0]} url).`);
  }
  let lastError: unknown;
  keyv.on('error', (error: unknown) => {
    lastError = error;
  });
  // A round trip now turns a missing folder, a locked file or an unreachable Redis into one clear error at start-up.
  // A Redis that is down or never answers makes keyv retry forever without rejecting: bound the probe.
  const probeTimeoutMs = options.probeTimeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const answered = await Promise.race([
      keyv.set('store:probe', Date.now()).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), probeTimeoutMs);
      }),
    ]);
    if (!answered) {
      void keyv.disconnect().catch(() => undefined);
      throw new EchoError('store-unavailable', `The store (${description}) did not answer within ${probeTimeoutMs / 1000} s: is it running and reachable?`);
    }
  } catch (error) {
    if (error instanceof EchoError) throw error;
    throw new EchoError('store-unavailable', `The store (${description}) is not usable: ${String((error as Error)?.message ?? error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  if (lastError !== undefined) throw new EchoError('store-unavailable', `The store (${description}) is not usable.`, { cause: lastError });

  const withLock = createKeyLock();

  function namespace<Value>(name: string): KeyValueNamespace<Value> {
    const prefix = `${name}:`;
    return {
      async get(key) {
        return (await keyv.get<Value>(prefix + key)) ?? undefined;
      },
      async set(key, value, ttlMs) {
        await keyv.set(prefix + key, value, ttlMs);
      },
      async delete(key) {
        return keyv.delete(prefix + key);
      },
      async update(key, updater, ttlMs) {
        return withLock(prefix + key, async () => {
          const raw = await keyv.getRaw<Value>(prefix + key);
          const current = raw?.value ?? undefined;
          const next = updater(current);
          if (next === undefined) {
            await keyv.delete(prefix + key);
            return next;
          }
          // Without a new ttl the record keeps the expiry it had: an update must not make an expiring record permanent.
          const keptTtl = ttlMs ?? (current !== undefined && typeof raw?.expires === 'number' ? Math.max(1, raw.expires - Date.now()) : undefined);
          await keyv.set(prefix + key, next, keptTtl);
          return next;
        });
      },
    };
  }

  return {
    description,
    namespace,
    async close() {
      await keyv.disconnect();
    },
  };
}
