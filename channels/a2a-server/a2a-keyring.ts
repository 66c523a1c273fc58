import { type BearerKeyMatch, findBearerKey } from '../../src/gateway/find-bearer-key.js';
import type { A2aKey } from './a2a-config.js';

/** Who a request is, by its bearer key: the key, or why not. */
export type A2aKeyCheck = BearerKeyMatch<A2aKey>;

/** Checks an `Authorization` header against the keys (constant time, every key compared). Pure. */
export function checkA2aKey(authorization: string | undefined, keys: readonly A2aKey[]): A2aKeyCheck {
  return findBearerKey(authorization, keys, (key) => key.secret);
}
