import { timingSafeEqual } from 'node:crypto';
import { errorBody } from '../../src/gateway/error-response.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { DispatchOutcome } from './dispatch-update.js';

/** What the webhook route needs. */
export type WebhookRouteOptions = {
  readonly path: string;
  /** The `secret_token` given to setWebhook; every request must carry it. */
  readonly secret: string;
  readonly dispatch: (update: unknown) => Promise<DispatchOutcome>;
  readonly logger: Logger;
};

const secretHeader = 'x-telegram-bot-api-secret-token';

/** The POST route Telegram delivers updates to in webhook mode, mounted by the HTTP gateway. */
export function createWebhookRoute(options: WebhookRouteOptions): HttpRoute {
  return {
    method: 'POST',
    path: options.path,
    async handle(request) {
      const read = await request.readJson();
      if (!read.ok) return { status: read.status, body: errorBody(read.code, read.message) };
      // Without the secret anyone could post a forged update with an allowed user's id.
      if (!isSameSecret(request.headers[secretHeader], options.secret)) {
        options.logger.warn('telegram webhook request without the right secret token; refused');
        return { status: 401, body: { ok: false, error: 'secret token missing or wrong' } };
      }
      const outcome = await options.dispatch(read.body);
      // Telegram delivers again later when the answer is not 2xx: wanted while stopping, not for a bad update.
      if (outcome === 'closed') return { status: 503, body: { ok: false, error: 'stopping' } };
      // Telegram retries an update it got no 2xx for: that is the redelivery an unrecorded update needs.
      if (outcome === 'retry-later') return { status: 503, body: { ok: false, error: 'storage unavailable' } };
      return { status: 200, body: { ok: true } };
    },
  };
}

/** The route path from the public webhook URL (`https://host/telegram/webhook` → `/telegram/webhook`). */
export function webhookPathOf(webhookUrl: string): string {
  try {
    const path = new URL(webhookUrl).pathname;
    return path === '' || path === '/' ? '/telegram/webhook' : path;
  } catch {
    return '/telegram/webhook';
  }
}

function isSameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined || expected === '') return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}
