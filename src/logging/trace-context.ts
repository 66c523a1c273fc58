import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while a turn runs carries. */
export type TraceFields = { readonly traceId: string; readonly sessionKey: string };

/** The turn being handled on this async path; the logger adds its fields to every line. */
export const traceContext = new AsyncLocalStorage<TraceFields>();
