import type { HttpResponse } from '../../src/gateway/http-route.js';

/** The `type` of an OpenAI-style error. */
export type ApiErrorType = 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'not_found_error' | 'rate_limit_error' | 'server_error';

/** An error answer as OpenAI clients read it: `{ error: { message, type, code } }`. Pure. */
export function apiError(status: number, type: ApiErrorType, code: string, message: string, headers?: Readonly<Record<string, string>>): HttpResponse {
  return { status, body: { error: { message, type, code, param: null } }, ...(headers ? { headers } : {}) };
}
