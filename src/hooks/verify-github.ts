import { verify } from '@octokit/webhooks-methods';
import { type HookVerification, refused, type SignedRequest } from './hook-verification.js';

/**
 * GitHub's scheme: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`, checked by GitHub's own library
 * (constant time); `X-GitHub-Delivery` is the delivery id, the same on a redelivery.
 */
export async function verifyGitHub(secret: string, request: SignedRequest): Promise<HookVerification> {
  const signature = request.headers['x-hub-signature-256'];
  if (signature === undefined || signature === '') return refused('missing X-Hub-Signature-256');
  const valid = await verify(secret, request.rawBody, signature).catch(() => false);
  if (!valid) return refused('X-Hub-Signature-256 does not match the body');
  const deliveryId = request.headers['x-github-delivery'];
  return deliveryId === undefined || deliveryId === '' ? { ok: true } : { ok: true, deliveryId };
}
