import { Webhook } from 'standardwebhooks';
import { type HookVerification, refused, type SignedRequest } from './hook-verification.js';

/**
 * Standard Webhooks (Svix, Clerk, Resend, Supabase...), checked by its reference library: `webhook-id`,
 * `webhook-timestamp` (5-minute tolerance) and `webhook-signature` (`v1,<base64>` values) over
 * `<id>.<timestamp>.<raw body>`, keyed by the `whsec_` secret. `webhook-id` is the delivery id.
 */
export function verifyStandardWebhooks(secret: string, request: SignedRequest): HookVerification {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  const signature = request.headers['webhook-signature'];
  if (!id || !timestamp || !signature) return refused('missing webhook-id, webhook-timestamp or webhook-signature');
  try {
    new Webhook(secret).verify(request.rawBody, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature });
    return { ok: true, deliveryId: id };
  } catch (error) {
    return refused(`Standard Webhooks signature refused: ${error instanceof Error ? error.message : String(error)}`);
  }
}
