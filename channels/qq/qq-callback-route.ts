import { errorBody } from '../../src/gateway/error-response.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { IntakeResult, QqDispatch } from './create-qq-intake.js';
import { type CallbackSettings, handleCallback } from './handle-callback.js';
import { qqCallbackPath } from './qq-settings.js';

/** What the route needs: the signature settings, the intake (undefined until the channel started), the clock. */
export type QqCallbackRouteOptions = {
  readonly settings: CallbackSettings;
  readonly intake: () => ((dispatch: QqDispatch) => Promise<IntakeResult>) | undefined;
  readonly logger: Logger;
  readonly now: () => Date;
};

/**
 * POST /qq/callback on the HTTP gateway: every request signed (op 13 included), op 13 answered only for the documented
 * shape, op 0 recorded before it is acknowledged with op 12, so an event the store could not take comes again.
 */
export function createQqCallbackRoute(options: QqCallbackRouteOptions): HttpRoute {
  return {
    method: 'POST',
    path: qqCallbackPath,
    async handle(request) {
      const read = await request.readJson();
      // Malformed JSON still goes through the signature check first (handleCallback parses it): only a signed request learns why.
      if (!read.ok && read.rawBody === undefined) return { status: read.status, body: errorBody(read.code, read.message) };
      const outcome = handleCallback(options.settings, { headers: request.headers, rawBody: read.rawBody ?? '', now: options.now() });
      if (outcome.refusal !== undefined) {
        options.logger.warn({ status: outcome.status, refusal: outcome.refusal }, 'QQ: callback refused');
        return { status: outcome.status, body: { error: outcome.refusal } };
      }
      if (outcome.dispatch) {
        const intake = options.intake();
        if (!intake) return { status: 503, body: { error: 'the QQ channel is not running yet' } };
        const result = await intake({ ...(outcome.dispatch.t === undefined ? {} : { type: outcome.dispatch.t }), data: outcome.dispatch.d, ...(outcome.dispatch.id === undefined ? {} : { id: outcome.dispatch.id }) });
        if (result === 'unavailable') return { status: 503, body: { error: 'the event could not be recorded; send it again' } };
      }
      return { status: outcome.status, body: outcome.body === '' ? '' : (JSON.parse(outcome.body) as unknown) };
    },
  };
}
