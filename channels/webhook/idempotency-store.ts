import { createHash } from 'node:crypto';
import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** How long an Idempotency-Key is remembered. */
export const idempotencyTtlMs = 24 * 60 * 60 * 1000;

const keyPattern = /^[\x21-\x7e]{1,255}$/;

/** The first answer given for a key, replayed as is. */
export type StoredResponse = { readonly status: number; readonly body: unknown };

/** What the store keeps per key. */
export type IdempotencyRecord = {
  readonly bodyHash: string;
  readonly runId: string;
  readonly createdAt: string;
  readonly response?: StoredResponse;
};

/** What claiming a key found: ours now, the same request seen before (answered or still running), or another body under the same key. */
export type IdempotencyClaim =
  | { readonly kind: 'new' }
  | { readonly kind: 'answered'; readonly runId: string; readonly response: StoredResponse }
  | { readonly kind: 'running'; readonly runId: string }
  | { readonly kind: 'conflict' };

/** Durable Idempotency-Key records (24 h) over a store namespace. */
export interface IdempotencyStore {
  claim(input: { readonly key: string; readonly rawBody: string; readonly runId: string; readonly now: Date }): Promise<IdempotencyClaim>;
  /** Remembers the first answer for the key. */
  answer(key: string, response: StoredResponse): Promise<void>;
  /** Forgets a key whose request was refused before it ran (bus full), so a retry can run. */
  release(key: string, runId: string): Promise<void>;
}

/** True when the header value is usable as a key: 1–255 visible ASCII characters. */
export function isValidIdempotencyKey(key: string): boolean {
  return keyPattern.test(key);
}

/** Creates the store; keys are hashed so any header value makes a short, safe store key. */
export function createIdempotencyStore(namespace: KeyValueNamespace<IdempotencyRecord>): IdempotencyStore {
  const storeKey = (key: string) => sha256(key);
  return {
    async claim(input) {
      const bodyHash = sha256(input.rawBody);
      // Read first, so a replay does not push the record's expiry out; the update below settles a race of two first requests.
      const seen: { record?: IdempotencyRecord } = { record: await namespace.get(storeKey(input.key)) };
      if (seen.record === undefined) {
        await namespace.update(
          storeKey(input.key),
          (current) => {
            seen.record = current;
            return current ?? { bodyHash, runId: input.runId, createdAt: input.now.toISOString() };
          },
          idempotencyTtlMs,
        );
      }
      const found = seen.record;
      if (found === undefined) return { kind: 'new' };
      if (found.bodyHash !== bodyHash) return { kind: 'conflict' };
      if (found.response !== undefined) return { kind: 'answered', runId: found.runId, response: found.response };
      return { kind: 'running', runId: found.runId };
    },
    async answer(key, response) {
      await namespace.update(storeKey(key), (current) => (current === undefined || current.response !== undefined ? current : { ...current, response }));
    },
    async release(key, runId) {
      await namespace.update(storeKey(key), (current) => (current?.runId === runId && current.response === undefined ? undefined : current));
    },
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
