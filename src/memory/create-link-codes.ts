import { createHash, randomInt } from 'node:crypto';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { PersonIdentity } from './create-identity-links.js';

/** A code waiting to be redeemed (namespace `memory-link-codes`, key: SHA-256 of the code; the code itself is never stored). */
export type StoredLinkCode = PersonIdentity & { readonly expiresAt: string };

/** One-time codes that link a person's identities across channels. */
export interface LinkCodes {
  /** A new code for this identity, valid `ttlMs`, usable once. */
  issue(identity: PersonIdentity): Promise<{ readonly code: string; readonly expiresAt: string }>;
  /** Takes a code: the identity that asked for it, or undefined when it is unknown, used or expired. */
  redeem(code: string): Promise<PersonIdentity | undefined>;
}

// No 0/O, 1/I/L: read from one screen and typed on another.
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const codeLength = 8;

/** A code as typed: upper case, spaces and dashes dropped. Pure. */
export function normaliseLinkCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, '');
}

function hashOf(code: string): string {
  return createHash('sha256').update(`echo-link:${normaliseLinkCode(code)}`).digest('hex');
}

/** Creates the link codes over their namespace (default lifetime 10 minutes). */
export function createLinkCodes(codes: KeyValueNamespace<StoredLinkCode>, options: { readonly now: () => Date; readonly ttlMs?: number }): LinkCodes {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  return {
    async issue(identity) {
      const code = Array.from({ length: codeLength }, () => alphabet[randomInt(alphabet.length)]).join('');
      const expiresAt = new Date(options.now().getTime() + ttlMs).toISOString();
      await codes.set(hashOf(code), { channel: identity.channel, userId: identity.userId, expiresAt }, ttlMs);
      return { code, expiresAt };
    },
    async redeem(code) {
      if (!/^[A-Z0-9]{4,16}$/.test(normaliseLinkCode(code))) return undefined;
      let taken: StoredLinkCode | undefined;
      // Read and deleted in one update: of two redemptions of the same code, one finds it.
      await codes.update(hashOf(code), (current) => {
        taken = current;
        return undefined;
      });
      if (taken === undefined || taken.expiresAt <= options.now().toISOString()) return undefined;
      return { channel: taken.channel, userId: taken.userId };
    },
  };
}
