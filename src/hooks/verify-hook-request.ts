import type { HookConfig } from '../config/config-schema.js';
import { assertNever } from '../events/assert-never.js';
import type { HookVerification, SignedRequest } from './hook-verification.js';
import { verifyBearer } from './verify-bearer.js';
import { verifyGitHub } from './verify-github.js';
import { verifyHmac } from './verify-hmac.js';
import { verifyStandardWebhooks } from './verify-standard-webhooks.js';
import { verifyStripe } from './verify-stripe.js';

/** Verifies one request with the hook's preset, exactly as its sender documents it. `none` passes (the config demands allowUnsigned). */
export async function verifyHookRequest(hook: Pick<HookConfig, 'verify' | 'secret' | 'hmac'>, request: SignedRequest, now: Date): Promise<HookVerification> {
  const secret = hook.secret ?? '';
  // The config refuses a signed preset without a secret; an empty one here would accept anything, so refuse it again.
  if (hook.verify !== 'none' && secret === '') return { ok: false, reason: 'the hook has no secret' };
  switch (hook.verify) {
    case 'github':
      return verifyGitHub(secret, request);
    case 'stripe':
      return verifyStripe(secret, request, now);
    case 'standard-webhooks':
      return verifyStandardWebhooks(secret, request);
    case 'hmac':
      return verifyHmac(secret, hook.hmac, request, now);
    case 'bearer':
      return verifyBearer(secret, request);
    case 'none':
      return { ok: true };
    default:
      return assertNever(hook.verify, 'hook verification');
  }
}
