/** One namespace of the durable store (sessions, approvals, schedules...). Values are JSON-serialisable. */
export interface KeyValueNamespace<Value> {
  get(key: string): Promise<Value | undefined>;
  /** Stores a value; `ttlMs` makes it expire. */
  set(key: string, value: Value, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<boolean>;
  /**
   * Reads, transforms and writes one key with no other update of that key in between (within this
   * process): the compare-and-set the approvals and idempotency records rely on. Returning
   * `undefined` from the updater deletes the key. Without `ttlMs` the key keeps the expiry it had.
   * Resolves to what was written.
   */
  update(key: string, updater: (current: Value | undefined) => Value | undefined, ttlMs?: number): Promise<Value | undefined>;
}

/** The durable store: named namespaces over one keyv backend (SQLite file or Redis). */
export interface Store {
  namespace<Value>(name: string): KeyValueNamespace<Value>;
  close(): Promise<void>;
  /** `sqlite:<file>` or `redis://host:port`, secrets masked. */
  readonly description: string;
}
