import { createHash, createHmac } from 'node:crypto';
import type { HookConfig } from '../config/config-schema.js';
import { type HookVerification, refused, type SignedRequest } from './hook-verification.js';
import { isConstantTimeEqual } from './is-constant-time-equal.js';

/**
 * A generic HMAC: the configured header holds `<prefix><signature>`, the signature being the HMAC (sha256, sha1 or
 * sha512; hex or base64) of the raw body, or of `<timestamp>.<raw body>` when a timestamp header is configured, which
 * is then checked against the replay window and names the delivery (a hash of what was signed).
 */
export function verifyHmac(secret: string, options: HookConfig['hmac'], request: SignedRequest, now: Date): HookVerification {
  const header = request.headers[options.header.toLowerCase()];
  if (header === undefined || header === '') return refused(`missing ${options.header}`);
  if (!header.startsWith(options.prefix)) return refused(`${options.header} does not start with ${options.prefix}`);
  let signed = request.rawBody;
  if (options.timestampHeader !== undefined) {
    const timestamp = request.headers[options.timestampHeader.toLowerCase()];
    if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return refused(`missing or malformed ${options.timestampHeader}`);
    if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > options.toleranceSeconds) return refused(`${options.timestampHeader} is more than ${options.toleranceSeconds} s from now`);
    signed = `${timestamp}.${request.rawBody}`;
  }
  const expected = createHmac(options.algorithm, secret).update(signed, 'utf8').digest(options.encoding);
  if (!isConstantTimeEqual(header.slice(options.prefix.length), expected)) return refused(`${options.header} does not match the body`);
  return options.timestampHeader === undefined ? { ok: true } : { ok: true, deliveryId: createHash('sha256').update(signed).digest('hex') };
}
