import type { ConsolePerson } from '../agent/runtime-dependencies.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import { createSecretToken, hashToken, tokensMatch } from './secret-token.js';

/** A console session as stored under the hash of its cookie value. */
export type StoredConsoleSession = {
  readonly person: ConsolePerson;
  /** Sent in every form; a POST without it (or with another) changes nothing. */
  readonly csrfToken: string;
  readonly createdAt: string;
  readonly expiresAt: string;
};

/** A session found from its cookie. */
export type ConsoleSession = StoredConsoleSession & { readonly id: string };

/** Browser sessions of the console: opened from a used link, found from the cookie, closed on logout. */
export interface ConsoleSessions {
  /** A new session: the cookie value to set (only its hash is stored) and the session. */
  open(person: ConsolePerson): Promise<{ readonly cookieValue: string; readonly session: ConsoleSession }>;
  /** The live session of a cookie value, or undefined (unknown, expired, or not a value this server made). */
  find(cookieValue: string | undefined): Promise<ConsoleSession | undefined>;
  close(session: ConsoleSession): Promise<void>;
}

const cookieShape = /^[0-9a-f]{64}$/;

/** Creates the session book over a store namespace (survives restarts, shared across a cluster). */
export function createConsoleSessions(options: { readonly sessions: KeyValueNamespace<StoredConsoleSession>; readonly now: () => Date; readonly lifetimeMs: number }): ConsoleSessions {
  return {
    async open(person) {
      const cookieValue = createSecretToken();
      const created = options.now();
      const stored: StoredConsoleSession = { person, csrfToken: createSecretToken(), createdAt: created.toISOString(), expiresAt: new Date(created.getTime() + options.lifetimeMs).toISOString() };
      const id = hashToken(cookieValue);
      await options.sessions.set(id, stored, options.lifetimeMs);
      return { cookieValue, session: { ...stored, id } };
    },
    async find(cookieValue) {
      if (cookieValue === undefined || !cookieShape.test(cookieValue)) return undefined;
      const id = hashToken(cookieValue);
      const stored = await options.sessions.get(id);
      if (stored === undefined || new Date(stored.expiresAt) <= options.now()) return undefined;
      return { ...stored, id };
    },
    async close(session) {
      await options.sessions.delete(session.id);
    },
  };
}

/** Whether a form's CSRF token is the session's own (constant time). */
export function csrfMatches(session: ConsoleSession, given: string | undefined): boolean {
  return tokensMatch(given ?? '', session.csrfToken);
}
