import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from now, either way. */
export const signatureToleranceSeconds = 300;

const signaturePattern = /^sha256=([0-9a-fA-F]{64})$/;
const timestampPattern = /^\d{1,12}$/;

/** Why a request's signature was refused. */
export type SignatureFailure = { readonly ok: false; readonly code: 'signature-missing' | 'signature-invalid' | 'timestamp-out-of-range'; readonly message: string };

/** A verified signature: its 64 hex digits (lower case, the replay store's key) and which signing string matched. */
export type VerifiedSignature = { readonly ok: true; readonly digest: string; readonly scheme: 'v2' | 'legacy' };

/**
 * The string a request signs: `<timestamp>.<Idempotency-Key or empty>.<raw body>`. The key is inside,
 * so a captured request cannot be sent again under another key (or none).
 */
export function requestSigningString(input: { readonly timestamp: string; readonly idempotencyKey?: string; readonly rawBody: string }): string {
  return `${input.timestamp}.${input.idempotencyKey ?? ''}.${input.rawBody}`;
}

/** The signature header value for a request: `sha256=<hex HMAC-SHA256(secret, timestamp.key.body)>`. */
export function signRequest(secret: string, input: { readonly timestamp: string; readonly idempotencyKey?: string; readonly rawBody: string }): string {
  return `sha256=${createHmac('sha256', secret).update(requestSigningString(input), 'utf8').digest('hex')}`;
}

/** The signature of a callback the agent sends (and of requests in the legacy scheme): `sha256=<hex HMAC-SHA256(secret, timestamp.body)>`. */
export function signBody(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex')}`;
}

/** Checks the headers are there and the timestamp is fresh, before the body is read. */
export function checkSignatureHeaders(input: { readonly timestamp: string | undefined; readonly signature: string | undefined; readonly now: Date }): { readonly ok: true } | SignatureFailure {
  if (input.timestamp === undefined || input.signature === undefined) {
    return { ok: false, code: 'signature-missing', message: 'Send X-Echo-Timestamp (unix seconds) and X-Echo-Signature (sha256=<hex>).' };
  }
  if (!timestampPattern.test(input.timestamp)) return { ok: false, code: 'timestamp-out-of-range', message: 'X-Echo-Timestamp must be unix seconds.' };
  const skew = Math.abs(Math.floor(input.now.getTime() / 1000) - Number(input.timestamp));
  if (skew > signatureToleranceSeconds) {
    return { ok: false, code: 'timestamp-out-of-range', message: `X-Echo-Timestamp is more than ${signatureToleranceSeconds} s away from the server's clock.` };
  }
  if (!signaturePattern.test(input.signature)) return { ok: false, code: 'signature-invalid', message: 'X-Echo-Signature must look like sha256=<64 hex digits>.' };
  return { ok: true };
}

/** What a signature is verified against. */
export type SignatureInput = {
  readonly secret: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly rawBody: string;
  readonly idempotencyKey?: string;
  /** Also accept the old signing string `timestamp.body` (webhook.legacySignature). */
  readonly acceptLegacy?: boolean;
};

/** Verifies the HMAC over `timestamp.key.body` (or, when allowed, the legacy `timestamp.body`) in constant time. */
export function verifySignature(input: SignatureInput): VerifiedSignature | SignatureFailure {
  const given = signaturePattern.exec(input.signature)?.[1];
  if (given === undefined) return { ok: false, code: 'signature-invalid', message: 'X-Echo-Signature must look like sha256=<64 hex digits>.' };
  const givenBytes = Buffer.from(given, 'hex');
  const digest = given.toLowerCase();
  const expected = createHmac('sha256', input.secret).update(requestSigningString(input), 'utf8').digest();
  // Both are 32 bytes here, so timingSafeEqual cannot throw and leaks nothing about where they differ.
  if (timingSafeEqual(givenBytes, expected)) return { ok: true, digest, scheme: 'v2' };
  if (input.acceptLegacy === true) {
    const legacy = createHmac('sha256', input.secret).update(`${input.timestamp}.${input.rawBody}`, 'utf8').digest();
    if (timingSafeEqual(givenBytes, legacy)) return { ok: true, digest, scheme: 'legacy' };
  }
  return { ok: false, code: 'signature-invalid', message: 'X-Echo-Signature does not match timestamp.idempotency-key.body.' };
}
