import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/** A person's own choice of the reviewer for their sessions (`/smart on|off`), within what the config allows. */
export type SmartPreference = { readonly smart: boolean; readonly at: string };

/** Stored `/smart` choices, keyed by `<channel>:<user id>`. */
export interface SmartPreferences {
  /** The person's choice, or undefined when they never chose (the config's mode applies). */
  get(userKey: string): Promise<boolean | undefined>;
  set(userKey: string, smart: boolean, at: Date): Promise<void>;
}

/** Creates the preference store over a store namespace (kept until changed). */
export function createSmartPreferences(namespace: KeyValueNamespace<SmartPreference>): SmartPreferences {
  return {
    get: async (userKey) => (await namespace.get(userKey))?.smart,
    set: (userKey, smart, at) => namespace.set(userKey, { smart, at: at.toISOString() }),
  };
}
