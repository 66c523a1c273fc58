import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from now, either way. */
export const signatureToleranceSeconds = 300;

const signaturePattern = /^sha256=([0-9a-fA-F]{64})$/;
const timestampPattern = /^\d{1,12}$/;

/** Why a request's signature was refused. */
export type SignatureFailure = { readonly ok: false; readonly code: 'signature-missing' | 'signature-invalid' | 'timestamp-out-of-range'; readonly message: string };

/** The signature header value for a body: `sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`. */
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

/** Verifies the HMAC over `timestamp.rawBody` in constant time (after the header checks). */
export function verifySignature(input: { readonly secret: string; readonly timestamp: string; readonly signature: string; readonly rawBody: string }): { readonly ok: true } | SignatureFailure {
  const given = signaturePattern.exec(input.signature)?.[1];
  if (given === undefined) return { ok: false, code: 'signature-invalid', message: 'X-Echo-Signature must look like sha256=<64 hex digits>.' };
  const expected = createHmac('sha256', input.secret).update(`${input.timestamp}.${input.rawBody}`, 'utf8').digest();
  // Both are 32 bytes here, so timingSafeEqual cannot throw and leaks nothing about where they differ.
  if (!timingSafeEqual(Buffer.from(given, 'hex'), expected)) {
    return { ok: false, code: 'signature-invalid', message: 'X-Echo-Signature does not match the body and timestamp.' };
  }
  return { ok: true };
}
