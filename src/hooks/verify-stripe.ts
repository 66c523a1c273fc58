import { createHmac } from 'node:crypto';
import { type HookVerification, refused, type SignedRequest } from './hook-verification.js';
import { isConstantTimeEqual } from './is-constant-time-equal.js';

/** Stripe's default tolerance between the signed timestamp and now. */
export const stripeToleranceSeconds = 300;

/**
 * Stripe's scheme as documented: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]` where each v1 is the
 * HMAC-SHA256 of `<t>.<raw body>` keyed by the endpoint secret (`whsec_...`, used as is); several v1 while a secret
 * rotates, any one matching suffices; v0 and unknown schemes are ignored. A timestamp more than 300 s from now is
 * refused (replays). The delivery id is the event's `id` (`evt_...`), the same on every retry.
 */
export function verifyStripe(secret: string, request: SignedRequest, now: Date): HookVerification {
  const header = request.headers['stripe-signature'];
  if (header === undefined || header === '') return refused('missing Stripe-Signature');
  const pairs = header.split(',').map((part) => {
    const separator = part.indexOf('=');
    return separator < 0 ? ['', ''] : [part.slice(0, separator).trim(), part.slice(separator + 1).trim()];
  });
  const timestamp = pairs.find(([key]) => key === 't')?.[1];
  const signatures = pairs.filter(([key]) => key === 'v1').map(([, value]) => value ?? '');
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return refused('Stripe-Signature has no timestamp');
  if (signatures.length === 0) return refused('Stripe-Signature has no v1 signature');
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > stripeToleranceSeconds) return refused(`the Stripe-Signature timestamp is more than ${stripeToleranceSeconds} s from now`);
  const expected = createHmac('sha256', secret).update(`${timestamp}.${request.rawBody}`, 'utf8').digest('hex');
  // Every signature is compared, so the time taken does not say which one matched.
  const matches = signatures.map((signature) => isConstantTimeEqual(signature, expected));
  if (!matches.includes(true)) return refused('no v1 signature in Stripe-Signature matches the body');
  const id = (request.body as { readonly id?: unknown } | null)?.id;
  return typeof id === 'string' && id !== '' ? { ok: true, deliveryId: id } : { ok: true };
}
