import { createHash, timingSafeEqual } from 'node:crypto';

/** Who a request is, by its bearer key: the key's user, or why not. */
export type KeyCheck = { readonly ok: true; readonly userId: string } | { readonly ok: false; readonly reason: 'missing' | 'invalid' };

/** Checks bearer keys against the configured ones. */
export type ApiKeyring = { check(authorization: string | undefined): KeyCheck };

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Builds the keyring: every key is compared in constant time (over hashes, so lengths leak nothing), all of them every time. */
export function createApiKeyring(keys: readonly { readonly secret: string; readonly user: string }[]): ApiKeyring {
  const known = keys.map((key) => ({ digest: digest(key.secret), user: key.user }));
  return {
    check(authorization) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
      if (given === undefined) return { ok: false, reason: 'missing' };
      const givenDigest = digest(given);
      let found: string | undefined;
      for (const key of known) if (timingSafeEqual(key.digest, givenDigest) && found === undefined) found = key.user;
      return found === undefined ? { ok: false, reason: 'invalid' } : { ok: true, userId: found };
    },
  };
}
