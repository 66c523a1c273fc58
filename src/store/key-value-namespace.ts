import type { Amounts } from './add-amounts.js';

/** One namespace of the durable store (sessions, approvals, schedules...). Values are JSON-serialisable. */
export interface KeyValueNamespace<Value> {
  get(key: string): Promise<Value | undefined>;
  /** Stores a value; `ttlMs` makes it expire. Rejects with a `store-*` EchoError when the write did not persist. */
  set(key: string, value: Value, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<boolean>;
  /**
   * Stores a value only when the key has none (an expired one counts as none), with no update of that key in
   * between; resolves to whether it stored it. One round trip where the store allows (PostgreSQL): the claim of
   * an id seen for the first time, without `update`'s read and write.
   */
  setIfAbsent(key: string, value: Value, ttlMs?: number): Promise<boolean>;
  /**
   * Reads, transforms and writes one key with no other update of that key in between (within this
   * process): the compare-and-set the approvals and idempotency records rely on. Returning
   * `undefined` from the updater deletes the key. Without `ttlMs` the key keeps the expiry it had.
   * Resolves to what was written.
   */
  update(key: string, updater: (current: Value | undefined) => Value | undefined, ttlMs?: number): Promise<Value | undefined>;
  /**
   * For records that are objects of numbers (counters): adds each of `amounts` to the field of the same name (a
   * missing or expired record, or a missing field, counts as 0) atomically (no concurrent add or update of the key is
   * lost), without reading the record first where the backend can (one statement in SQLite and PostgreSQL). With `ttlMs`
   * the record expires that long from now, without it keeps the expiry it had. Resolves to the record as stored
   * after the add (and any other adds to that key made at the same moment).
   */
  add(key: string, amounts: Amounts, ttlMs?: number): Promise<Value>;
  /** Every live entry of this namespace (for recovery sweeps at start-up; not for hot paths). */
  entries(): Promise<readonly (readonly [string, Value])[]>;
}

/** Whether the store answers: `degraded` after a failed or timed-out call, `ok` again after the next success. */
export type StoreHealth = {
  readonly state: 'ok' | 'degraded';
  /** Failed or timed-out calls since start. */
  readonly errors: number;
  /** The last failure, in one line, while degraded. */
  readonly lastError?: string;
};

/** The durable store: named namespaces over one keyv backend (SQLite file or Redis). */
export interface Store {
  namespace<Value>(name: string): KeyValueNamespace<Value>;
  /** Deletes every expired row now (keyv alone removes them only when read); resolves to how many went. */
  purgeExpired(): Promise<number>;
  /** How many rows the store holds, expired ones included (for soak tests and `/metrics`). */
  countRows(): Promise<number>;
  /** The state as of the last call. */
  health(): StoreHealth;
  /** Makes one short round trip (at most `timeoutMs`, default 1000), then says the state. */
  check(timeoutMs?: number): Promise<StoreHealth>;
  close(): Promise<void>;
  /** `sqlite:<file>` or `redis://host:port`, secrets masked. */
  readonly description: string;
  /** The SQLite file, when the store is a file on this machine that only this process writes (not Redis, PostgreSQL or memory). */
  readonly localFile?: string;
}
