import type { HttpRequest } from '../../src/gateway/http-route.js';

/** A gateway request carrying a JSON body that was read without trouble, for calling a route's `handle` directly. */
export function jsonRequest(input: { readonly body: unknown; readonly rawBody?: string; readonly headers?: Readonly<Record<string, string | undefined>>; readonly path?: string }): HttpRequest {
  const rawBody = input.rawBody ?? JSON.stringify(input.body);
  return {
    method: 'POST',
    path: input.path ?? '/',
    headers: input.headers ?? {},
    query: {},
    readJson: async () => ({ ok: true, body: input.body, rawBody }),
    readForm: async () => ({ ok: false, status: 415, message: 'a JSON request' }),
    closed: new AbortController().signal,
  };
}
