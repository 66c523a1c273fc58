import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/** Remembers which ids (Telegram update ids, WeChat message ids) were handled, so one delivered twice runs once. */
export interface Dedupe {
  /**
   * Claims an id: true the first time it is seen within the TTL, false every later time, except that a
   * claim another process took and never confirmed is taken over (that process died between claiming and
   * handing the item on, so the item would otherwise be lost).
   */
  claim(id: string | number): Promise<boolean>;
  /** Confirms a claim once the item is handed on (queued): from now on every delivery of it is a duplicate. */
  confirm(id: string | number): Promise<void>;
  /** Gives a claim back (the item was not handled after all, e.g. the bus was closing). */
  release(id: string | number): Promise<void>;
}

/** A stored claim: who took it and whether the item was handed on (a bare number is a confirmed claim). */
export type DedupeRow = number | { readonly at: number; readonly by: string; readonly confirmed?: true };

/** Where ids are remembered: a bounded set in memory in front of the store, which outlives restarts. */
export type DedupeOptions = {
  readonly store: KeyValueNamespace<DedupeRow>;
  /** Prefixes each stored row (`<keyPrefix>:<id>`), e.g. one per bot; none by default. */
  readonly keyPrefix?: string;
  /** How long a claim is kept in the store. */
  readonly ttlMs: number;
  /** How many recent ids are answered from memory without the store. */
  readonly memoryLimit: number;
  readonly now?: () => number;
};

/**
 * One small store row per claimed id (with a TTL), plus the most recent ids in memory so a duplicate
 * seen by this process is answered without the store. An id is remembered before the store is asked,
 * so two deliveries arriving together claim it once. Ids are never compared by size (Telegram
 * restarts its numbering after a week without updates).
 */
export function createDedupe(options: DedupeOptions): Dedupe {
  const now = options.now ?? Date.now;
  // Which process holds an unconfirmed claim: a claim left by another (dead) process is taken over.
  const claimant = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const recent = new Set<string>();
  const rowKey = (id: string) => (options.keyPrefix === undefined ? id : `${options.keyPrefix}:${id}`);
  const remember = (id: string) => {
    recent.add(id);
    if (recent.size <= options.memoryLimit) return;
    // A Set iterates in insertion order: the first entry is the oldest.
    const oldest = recent.values().next().value;
    if (oldest !== undefined) recent.delete(oldest);
  };
  return {
    async claim(rawId) {
      const id = String(rawId);
      if (recent.has(id)) return false;
      remember(id);
      let seenBefore = false;
      try {
        // An id seen for the first time (nearly every one) is claimed in one write; only a row already there is read
        // and decided by the compare-and-set below.
        if (await options.store.setIfAbsent(rowKey(id), { at: now(), by: claimant }, options.ttlMs)) return true;
        await options.store.update(
          rowKey(id),
          (claimed) => {
            if (claimed === undefined) return { at: now(), by: claimant };
            if (typeof claimed === 'object' && claimed.confirmed !== true && claimed.by !== claimant) return { at: now(), by: claimant };
            seenBefore = true;
            return claimed;
          },
          options.ttlMs,
        );
      } catch (error) {
        // Not recorded, so not claimed: the platform delivers it again, and that delivery must get through.
        recent.delete(id);
        throw error;
      }
      return !seenBefore;
    },
    async confirm(rawId) {
      // Written without reading it first (one round trip): only the claimant confirms, and a confirmed row is final whoever wrote it.
      await options.store.set(rowKey(String(rawId)), { at: now(), by: claimant, confirmed: true }, options.ttlMs);
    },
    async release(rawId) {
      const id = String(rawId);
      recent.delete(id);
      await options.store.delete(rowKey(id));
    },
  };
}
