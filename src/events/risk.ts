/** How much harm a tool can do, from reading to irreversible change. */
export type Risk = 'read_only' | 'write' | 'exec' | 'dangerous';
