import type { HttpResponse } from '../../src/gateway/http-route.js';

/** JSON-RPC error codes this route answers before the SDK sees a request. */
export const rpcErrorCodes = { parse: -32700, invalidRequest: -32600, invalidParams: -32602, unauthorized: -32001, rateLimited: -32029 } as const;

/** A JSON-RPC error answer with an HTTP status (and headers), readable by people and SDK clients alike. Pure. */
export function rpcError(status: number, code: number, message: string, headers?: Readonly<Record<string, string>>, id: string | number | null = null): HttpResponse {
  return { status, body: { jsonrpc: '2.0', id, error: { code, message } }, ...(headers ? { headers } : {}) };
}
