import type { ConsolePerson } from '../agent/runtime-dependencies.js';
import { consoleLinkMinutes } from '../config/console-schema.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { createSecretToken, hashToken } from './secret-token.js';

/** A login link as stored under the hash of its token: whom it is for, until when, and whether it was used. */
export type StoredConsoleLink = {
  readonly person: ConsolePerson;
  readonly expiresAt: string;
  readonly usedAt?: string;
};

/** What opening a link found: the person it logs in, or why not. */
export type LinkRedemption = { readonly ok: true; readonly person: ConsolePerson } | { readonly ok: false; readonly code: 'unknown' | 'expired' | 'used' };

/** One-time login links: issued by `/console`, opened once within their lifetime by whoever holds them. */
export interface ConsoleLinks {
  /** A new link token for the person (only its hash is stored). */
  issue(person: ConsolePerson): Promise<string>;
  /** Uses the link: exactly once, before it expires (a compare-and-set on its record). */
  redeem(token: string): Promise<LinkRedemption>;
}

/** Default lifetime of a link (the config's consoleLinkMinutes, which the chat answer names). */
export const linkLifetimeMs = consoleLinkMinutes * 60_000;
/** A used or stale link's record is kept this long past its expiry, so opening it again says why it fails. */
const keepAfterExpiryMs = 60 * 60_000;
const tokenShape = /^[0-9a-f]{64}$/;

/** Creates the link book over a store namespace (survives restarts, shared by every instance of a cluster). */
export function createConsoleLinks(options: { readonly links: KeyValueNamespace<StoredConsoleLink>; readonly now: () => Date; readonly lifetimeMs?: number }): ConsoleLinks {
  const lifetimeMs = options.lifetimeMs ?? linkLifetimeMs;
  return {
    async issue(person) {
      const token = createSecretToken();
      const expiresAt = new Date(options.now().getTime() + lifetimeMs).toISOString();
      await options.links.set(hashToken(token), { person, expiresAt }, lifetimeMs + keepAfterExpiryMs);
      return token;
    },
    async redeem(token) {
      if (!tokenShape.test(token)) return { ok: false, code: 'unknown' };
      let found: LinkRedemption = { ok: false, code: 'unknown' };
      await options.links.update(hashToken(token), (current) => {
        if (current === undefined) return current;
        if (current.usedAt !== undefined) {
          found = { ok: false, code: 'used' };
          return current;
        }
        const at = options.now();
        if (new Date(current.expiresAt) <= at) {
          found = { ok: false, code: 'expired' };
          return current;
        }
        found = { ok: true, person: current.person };
        return { ...current, usedAt: at.toISOString() };
      });
      return found;
    },
  };
}
