import type { HookConfig } from '../config/config-schema.js';
import type { EmitResult } from '../events/channel.js';
import { createEnvelope } from '../events/create-envelope.js';
import { createId } from '../events/create-id.js';
import type { HookReceived, InboundEvent } from '../events/inbound-event.js';
import { errorBody } from '../gateway/error-response.js';
import type { HttpResponse, HttpRoute } from '../gateway/http-route.js';
import type { Logger } from '../logging/create-logger.js';
import { findLink } from './find-link.js';
import type { DeliverySummary, HookDeliveries } from './hook-deliveries.js';
import type { HookOutcome } from './hook-outcome.js';
import { hookSessionKey } from './hook-session-key.js';
import { matchesWhen } from './matches-when.js';
import { renderTemplate } from './render-template.js';
import { verifyHookRequest } from './verify-hook-request.js';

/** Largest body a hook accepts (GitHub sends at most 25 MB, but events an agent reads are far smaller). */
export const hookBodyLimitBytes = 1024 * 1024;

/** What one hook's route is built from. */
export type HookRouteOptions = {
  readonly name: string;
  readonly hook: HookConfig;
  /** The durable intake (journal, then bus): answered as soon as the event is recorded, before any turn runs. */
  readonly accept: (event: InboundEvent) => Promise<EmitResult>;
  readonly deliveries: HookDeliveries;
  readonly logger: Logger;
  readonly now: () => Date;
  /** Counts the request's outcome for /metrics. */
  readonly counted: (outcome: HookOutcome) => void;
};

/**
 * `POST /hooks/<name>`: verify the sender's signature over the raw body (401 and nothing run when it fails), claim its
 * delivery id (a redelivery gets the first answer and runs nothing), check `when` (204 when it does not match),
 * render the prompt and hand a `hook-received` event to the durable intake: 202 once it is recorded, the turn after.
 */
export function createHookRoute(options: HookRouteOptions): HttpRoute {
  const { name, hook, deliveries, logger } = options;
  const answer = (outcome: HookOutcome, response: HttpResponse): HttpResponse => {
    options.counted(outcome);
    return response;
  };
  const record = (summary: DeliverySummary) => deliveries.record(name, summary).catch((error: unknown) => logger.warn({ err: error, hook: name }, 'hook delivery not recorded for npm run hooks'));
  return {
    method: 'POST',
    path: `/hooks/${name}`,
    bodyLimitBytes: hookBodyLimitBytes,
    async handle(request) {
      const at = options.now();
      // A bearer token is checked from the headers alone: no body is read for a caller without it.
      if (hook.verify === 'bearer') {
        const early = await verifyHookRequest(hook, { headers: request.headers, rawBody: '', body: undefined }, at);
        if (!early.ok) return refuseUnverified(early.reason);
      }
      const read = await request.readJson();
      if (!read.ok) return answer('bad-request', { status: read.status, body: errorBody(read.code, read.message) });
      const verified = await verifyHookRequest(hook, { headers: request.headers, rawBody: read.rawBody, body: read.body }, at);
      if (!verified.ok) return refuseUnverified(verified.reason);

      const eventId = createId();
      const deliveryId = verified.deliveryId ?? eventId;
      const match = matchesWhen(hook.when, { headers: request.headers, body: read.body });
      const status = match.matched ? 202 : 204;
      if (verified.deliveryId !== undefined) {
        const claimed = await deliveries.claim(name, deliveryId, { eventId, status, at: at.toISOString() }).catch(() => undefined);
        if (claimed === undefined) return answer('unavailable', { status: 503, body: errorBody('store-unavailable', 'The delivery could not be recorded; retry later.'), headers: { 'retry-after': '5' } });
        if (!claimed.first) {
          await record({ at: at.toISOString(), deliveryId, status: claimed.earlier.status, verified: true, duplicate: true, eventId: claimed.earlier.eventId, note: 'redelivery: answered as the first time, nothing run' });
          // The first answer again: 202 stays 202 (accepted once), 204 stays 204.
          return answer('duplicate', claimed.earlier.status === 204 ? { status: 204 } : { status: 202, body: { accepted: true, duplicate: true, deliveryId, eventId: claimed.earlier.eventId } });
        }
      }
      if (!match.matched) {
        await record({ at: at.toISOString(), deliveryId, status: 204, verified: true, matched: false, note: `when: ${match.failed} does not match` });
        return answer('not-matched', { status: 204 });
      }

      const prompt = renderTemplate(hook.prompt, read.body);
      // Logged once per delivery: a template naming a path this payload lacks is worth a look, not an error.
      if (prompt.missing.length > 0) logger.info({ hook: name, deliveryId, missing: prompt.missing }, 'hook template paths missing from the payload rendered empty');
      const link = findLink(read.body);
      const event: HookReceived = {
        type: 'hook-received',
        ...createEnvelope({
          id: eventId,
          channel: hook.deliverTo.channel,
          chatId: hook.deliverTo.chatId,
          ...(hook.deliverTo.threadId === undefined ? {} : { threadId: hook.deliverTo.threadId }),
          sessionKey: hookSessionKey(name, hook.session, read.body),
          // Set here, never from the payload: another system, unattended.
          origin: 'system',
          now: at,
        }),
        hookName: name,
        deliveryId,
        prompt: prompt.text,
        ...(link === undefined ? {} : { link }),
      };
      const accepted = await options.accept(event).catch((): EmitResult => ({ accepted: false, reason: 'unavailable' }));
      if (!accepted.accepted) {
        if (verified.deliveryId !== undefined) await deliveries.release(name, deliveryId, eventId).catch(() => undefined);
        logger.warn({ hook: name, deliveryId, reason: accepted.reason }, 'hook delivery not accepted; the sender retries');
        return answer('unavailable', { status: 503, body: errorBody(accepted.reason === 'busy' ? 'busy' : 'store-unavailable', `The event was not accepted (${accepted.reason}); retry later.`), headers: { 'retry-after': '5' } });
      }
      await record({ at: at.toISOString(), deliveryId, status: 202, verified: true, matched: true, eventId });
      return answer('accepted', { status: 202, body: { accepted: true, deliveryId, eventId } });

      function refuseUnverified(reason: string): HttpResponse {
        logger.warn({ hook: name, reason }, 'hook request refused: not verified');
        return answer('unverified', { status: 401, body: errorBody('signature-invalid', `The request is not verified: ${reason}.`) });
      }
    },
  };
}
