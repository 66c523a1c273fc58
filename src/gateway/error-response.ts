import type { Context } from 'koa';

/** The machine-readable codes the gateway answers errors with. */
export type GatewayErrorCode =
  | 'json-malformed'
  | 'signature-missing'
  | 'signature-invalid'
  | 'timestamp-out-of-range'
  | 'body-too-large'
  | 'unsupported-media-type'
  | 'invalid-request'
  | 'idempotency-key-invalid'
  | 'idempotency-key-reused'
  | 'command-not-allowed'
  | 'request-replayed'
  | 'callback-url-refused'
  | 'unauthorized'
  | 'rate-limited'
  | 'busy'
  | 'store-unavailable'
  | 'model-unavailable'
  | 'budget-exhausted'
  | 'not-found'
  | 'method-not-allowed'
  | 'origin-not-allowed'
  | 'internal';

/** One field that failed validation, by its path in the JSON body. */
export type FieldIssue = { readonly path: string; readonly message: string };

/** The JSON body of every error answer: `{ error: { code, message } }`, plus the failing fields for 422. */
export type ErrorBody = { readonly error: { readonly code: GatewayErrorCode; readonly message: string; readonly fields?: readonly FieldIssue[] } };

/** Builds an error body. */
export function errorBody(code: GatewayErrorCode, message: string, fields?: readonly FieldIssue[]): ErrorBody {
  return { error: fields === undefined ? { code, message } : { code, message, fields } };
}

/** Answers the request with a JSON error. */
export function respondWithError(context: Context, status: number, code: GatewayErrorCode, message: string, fields?: readonly FieldIssue[]): void {
  context.status = status;
  context.body = errorBody(code, message, fields);
}
