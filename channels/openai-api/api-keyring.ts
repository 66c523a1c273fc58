import { findBearerKey } from '../../src/gateway/find-bearer-key.js';

/** Who a request is, by its bearer key: the key's user, or why not. */
export type KeyCheck = { readonly ok: true; readonly userId: string } | { readonly ok: false; readonly reason: 'missing' | 'invalid' };

/** Checks bearer keys against the configured ones. */
export type ApiKeyring = { check(authorization: string | undefined): KeyCheck };

/** Builds the keyring: every key is compared in constant time (over hashes, so lengths leak nothing), all of them every time. */
export function createApiKeyring(keys: readonly { readonly secret: string; readonly user: string }[]): ApiKeyring {
  return {
    check(authorization) {
      const match = findBearerKey(authorization, keys, (key) => key.secret);
      return match.ok ? { ok: true, userId: match.key.user } : match;
    },
  };
}
