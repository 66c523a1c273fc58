import { describeError, EchoError } from '../errors/echo-error.js';
import { addAmounts } from './add-amounts.js';
import { createStoreGuard } from './create-store-guard.js';
import { createBatcher } from './create-batcher.js';
import type { StoredRow } from './open-keyv-backend.js';
import { createKeyLock } from './key-lock.js';
import type { KeyValueNamespace, Store } from './key-value-namespace.js';
import { type KeyvBackend, openKeyvBackend } from './open-keyv-backend.js';

/** Where the store lives. */
export type StoreOptions = {
  /** Empty or undefined: SQLite file `echo.sqlite` in `dataDir`. `redis://...`: Redis. `postgres://...`: PostgreSQL (cluster mode). `memory:` for throwaway use. */
  readonly url?: string;
  readonly dataDir: string;
  /** How long the start-up round trip may take before the store counts as unreachable; default 5000. */
  readonly probeTimeoutMs?: number;
  /** How long any one store call may take before it fails with `store-timeout`; default 5000. */
  readonly operationTimeoutMs?: number;
  /** Told of every failed store call (metrics). */
  readonly onError?: (error: EchoError) => void;
};

/**
 * Opens the durable store: keyv over a SQLite file by default, Redis or PostgreSQL when the url says so.
 * Every call has a timeout, and a write that did not persist rejects with a `store-write-failed`
 * EchoError: keyv alone would swallow it and answer `false`.
 */
export async function createStore(options: StoreOptions): Promise<Store> {
  if (options.url?.startsWith('postgres://') || options.url?.startsWith('postgresql://')) {
    // Loaded only when configured: one-process users never pay for the PostgreSQL client at start-up.
    const { createPostgresStore } = await import('./create-postgres-store.js');
    return createPostgresStore({ url: options.url, probeTimeoutMs: options.probeTimeoutMs, operationTimeoutMs: options.operationTimeoutMs, onError: options.onError });
  }
  const backend = await openKeyvBackend({ url: options.url ?? '', dataDir: options.dataDir });
  const { keyv, description } = backend;
  await probe(backend, options.probeTimeoutMs ?? 5000);

  const guard = createStoreGuard({ description, operationTimeoutMs: options.operationTimeoutMs ?? 5000, onError: options.onError });
  let closed = false;

  const batched = backend.writeBatch ? createBatcher(backend.writeBatch) : undefined;
  const batchedRead = backend.readBatch ? createBatcher(backend.readBatch) : undefined;
  const batchedAdd = backend.addBatch ? createBatcher(backend.addBatch) : undefined;
  const batchedInsertIfAbsent = backend.insertIfAbsentBatch ? createBatcher(backend.insertIfAbsentBatch) : undefined;

  /** A live row: its value and expiry, or undefined when it is missing or expired (the purge deletes those). */
  async function read<Value>(key: string): Promise<{ readonly value: Value; readonly expires?: number } | undefined> {
    if (batchedRead) {
      const row = liveRow(await batchedRead(key));
      return row === undefined ? undefined : { value: row.value as Value, ...(row.expires === undefined ? {} : { expires: row.expires }) };
    }
    const raw = await keyv.getRaw<Value>(key);
    if (raw?.value === undefined) return undefined;
    return { value: raw.value, ...(typeof raw.expires === 'number' ? { expires: raw.expires } : {}) };
  }

  /** The row format keyv reads back: the value beside its expiry. */
  const serialize = (value: unknown, ttlMs: number | undefined) => JSON.stringify({ value, expires: typeof ttlMs === 'number' ? Date.now() + ttlMs : undefined });

  async function write(key: string, value: unknown, ttlMs?: number): Promise<void> {
    if (batched) {
      await batched({ kind: 'set', key, serialized: serialize(value, ttlMs) });
      return;
    }
    const stored = await keyv.set(key, value, ttlMs);
    if (stored === false) throw new EchoError('store-write-failed', `The store (${description}) did not save ${key.split(':')[0]}.`);
  }

  const remove = (key: string): Promise<boolean> => (batched ? batched({ kind: 'delete', key }) : keyv.delete(key));

  const withLock = createKeyLock();

  function namespace<Value>(name: string): KeyValueNamespace<Value> {
    const prefix = `${name}:`;
    const space: KeyValueNamespace<Value> = {
      // Where calls are batched (SQLite), get, set, delete and add hand the guard's callbacks to the batcher: one
      // promise per call. Store calls wait in the group-commit queue while SQLite is busy, long enough under load for
      // every object they hold to be promoted to the old generation (issue 25).
      get: (key) =>
        batchedRead
          ? guard.start<Value | undefined>(`reading ${name}`, (resolve, reject) => batchedRead.enqueue(prefix + key, (row) => resolve(liveRow(row)?.value as Value | undefined), reject))
          : guard.run(`reading ${name}`, async () => (await read<Value>(prefix + key))?.value),
      set: (key, value, ttlMs) =>
        batched
          ? guard.start<void>(`saving ${name}`, (resolve, reject) => batched.enqueue({ kind: 'set', key: prefix + key, serialized: serialize(value, ttlMs) }, () => resolve(), reject))
          : guard.run(`saving ${name}`, () => write(prefix + key, value, ttlMs)),
      delete: (key) =>
        batched ? guard.start<boolean>(`deleting from ${name}`, (resolve, reject) => batched.enqueue({ kind: 'delete', key: prefix + key }, resolve, reject)) : guard.run(`deleting from ${name}`, () => remove(prefix + key)),
      setIfAbsent(key, value, ttlMs) {
        // Under the key's lock: an update's read and write of the key must not straddle it. Where the backend has a
        // one-statement insert-if-absent (SQLite), no read first.
        return withLock(prefix + key, () =>
          batchedInsertIfAbsent
            ? guard.start<boolean>(`saving ${name}`, (resolve, reject) => batchedInsertIfAbsent.enqueue({ key: prefix + key, serialized: serialize(value, ttlMs) }, resolve, reject))
            : guard.run(`saving ${name}`, async () => {
                if ((await read<Value>(prefix + key)) !== undefined) return false;
                await write(prefix + key, value, ttlMs);
                return true;
              }),
        );
      },
      update(key, updater, ttlMs) {
        return withLock(prefix + key, () =>
          guard.run(`updating ${name}`, async () => {
            const raw = await read<Value>(prefix + key);
            const current = raw?.value;
            const next = updater(current);
            if (next === undefined) {
              if (current !== undefined) await remove(prefix + key);
              return next;
            }
            // Without a new ttl the record keeps the expiry it had: an update must not make an expiring record permanent.
            const keptTtl = ttlMs ?? (current !== undefined && typeof raw?.expires === 'number' ? Math.max(1, raw.expires - Date.now()) : undefined);
            await write(prefix + key, next, keptTtl);
            return next;
          }),
        );
      },
      add(key, amounts, ttlMs) {
        // Without a one-statement add (Redis, memory), the same through update's compare-and-set.
        if (batchedAdd === undefined) return space.update(key, (current) => addAmounts(current, amounts) as Value, ttlMs) as Promise<Value>;
        // Under the key's lock: an update's read and write of the key must not straddle an add.
        return withLock(prefix + key, () =>
          guard.start<Value>(`adding to ${name}`, (resolve, reject) =>
            batchedAdd.enqueue({ key: prefix + key, amounts, expires: typeof ttlMs === 'number' ? Date.now() + ttlMs : undefined }, (value) => resolve(value as Value), reject),
          ),
        );
      },
      entries: () =>
        guard.run(`listing ${name}`, async () => {
          const now = Date.now();
          const rows = await backend.scan(prefix);
          return rows.filter((row) => row.expires === undefined || row.expires > now).map((row) => [row.key.slice(prefix.length), row.value as Value] as const);
        }),
    };
    return space;
  }

  return {
    description,
    ...(backend.localFile === undefined ? {} : { localFile: backend.localFile }),
    namespace,
    purgeExpired: () => guard.run('purging expired rows', () => backend.purgeExpired(Date.now())),
    countRows: () => guard.run('counting rows', () => backend.countRows()),
    health: guard.health,
    async check(timeoutMs = 1000) {
      await guard.run('answering a health check', () => keyv.get('store:probe'), timeoutMs).catch(() => undefined);
      return guard.health();
    },
    async close() {
      // Idempotent: a second close (an error path and a finally both closing) must not throw.
      if (closed) return;
      closed = true;
      guard.dispose();
      await keyv.disconnect();
    },
  };
}

/** The row unless it is missing or expired. */
function liveRow(row: StoredRow | undefined): StoredRow | undefined {
  return row === undefined || (row.expires !== undefined && row.expires <= Date.now()) ? undefined : row;
}

/** A round trip at start-up turns a missing folder, a locked file or an unreachable Redis into one clear error. */
async function probe(backend: KeyvBackend, timeoutMs: number): Promise<void> {
  const { keyv, description } = backend;
  // A Redis that is down or never answers makes keyv retry forever without rejecting: bound the probe.
  let timer: NodeJS.Timeout | undefined;
  try {
    const answered = await Promise.race([
      keyv.set('store:probe', Date.now()).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    if (!answered) {
      void keyv.disconnect().catch(() => undefined);
      throw new EchoError('store-unavailable', `The store (${description}) did not answer within ${timeoutMs / 1000} s: is it running and reachable?`);
    }
  } catch (error) {
    if (error instanceof EchoError) throw error;
    void keyv.disconnect().catch(() => undefined);
    throw new EchoError('store-unavailable', `The store (${description}) is not usable: ${describeError(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
