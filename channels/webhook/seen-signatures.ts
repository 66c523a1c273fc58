import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';
import { signatureToleranceSeconds } from './verify-signature.js';

/** How long a signature is remembered: its timestamp is accepted for 300 s either way, so 600 s covers its whole window. */
export const seenSignatureTtlMs = 2 * signatureToleranceSeconds * 1000;

/** What one signature was first seen with. */
export type SeenSignature = { readonly idempotencyKey: string | null };

/**
 * What a signature's sighting means: `first`; `retry` (seen before with the same Idempotency-Key, which
 * then answers with the first response); or `replay` (seen before without a key, or with another one).
 */
export type SignatureSighting = 'first' | 'retry' | 'replay';

/** Signatures of accepted requests, kept in the store for their whole validity window so a replay is refused, also after a restart. */
export interface SeenSignatures {
  sight(input: { readonly digest: string; readonly idempotencyKey?: string }): Promise<SignatureSighting>;
}

/** Creates the replay store over a store namespace (`webhook-signatures`). */
export function createSeenSignatures(namespace: KeyValueNamespace<SeenSignature>): SeenSignatures {
  return {
    async sight(input) {
      const key = input.idempotencyKey ?? null;
      let earlier: SeenSignature | undefined;
      // update() is serialised per key: of two identical requests at once, one is first and the other sees it.
      await namespace.update(
        input.digest,
        (current) => {
          earlier = current;
          return current ?? { idempotencyKey: key };
        },
        seenSignatureTtlMs,
      );
      if (earlier === undefined) return 'first';
      return key !== null && earlier.idempotencyKey === key ? 'retry' : 'replay';
    },
  };
}
