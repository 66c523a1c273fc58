import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/** A standing permission to run one tool with one argument pattern without asking again. */
export type Grant = {
  readonly toolName: string;
  /** Hash of the exact arguments: a grant never widens to other arguments. */
  readonly argumentsHash: string;
  readonly summary: string;
  readonly grantedBy: string;
  readonly grantedAt: string;
};

/** Session grants (this conversation only) and `always` grants (per user, persisted). */
export interface GrantStore {
  has(query: { readonly sessionKey: string; readonly userKey: string; readonly toolName: string; readonly argumentsHash: string }): Promise<'session' | 'always' | undefined>;
  add(scope: 'session' | 'always', key: string, grant: Grant): Promise<void>;
  /** `always` grants of a user, numbered from 1 in the order shown by `/approvals`. */
  listAlways(userKey: string): Promise<readonly Grant[]>;
  revokeAlways(userKey: string, number: number): Promise<Grant | undefined>;
  clearSession(sessionKey: string): Promise<void>;
}

/** Grants kept in two store namespaces: `grants-session` by session key, `grants-always` by `<channel>:<userId>`. */
export function createGrantStore(session: KeyValueNamespace<Grant[]>, always: KeyValueNamespace<Grant[]>, options: { readonly sessionTtlMs?: number } = {}): GrantStore {
  const matches = (grant: Grant, toolName: string, argumentsHash: string) => grant.toolName === toolName && grant.argumentsHash === argumentsHash;
  return {
    async has({ sessionKey, userKey, toolName, argumentsHash }) {
      if ((await session.get(sessionKey))?.some((grant) => matches(grant, toolName, argumentsHash))) return 'session';
      if ((await always.get(userKey))?.some((grant) => matches(grant, toolName, argumentsHash))) return 'always';
      return undefined;
    },
    async add(scope, key, grant) {
      const space = scope === 'session' ? session : always;
      // Session grants live as long as an idle session does; "always" grants until revoked.
      await space.update(key, (current = []) => [...current.filter((item) => !matches(item, grant.toolName, grant.argumentsHash)), grant], scope === 'session' ? options.sessionTtlMs : undefined);
    },
    async listAlways(userKey) {
      return (await always.get(userKey)) ?? [];
    },
    async revokeAlways(userKey, number) {
      let removed: Grant | undefined;
      await always.update(userKey, (current = []) => {
        removed = current[number - 1];
        return removed ? current.filter((_, index) => index !== number - 1) : current;
      });
      return removed;
    },
    async clearSession(sessionKey) {
      await session.delete(sessionKey);
    },
  };
}
