import { answerValidation } from './answer-validation.js';
import type { QqSigningKey } from './derive-signing-key.js';
import { type QqPayload, parsePayload, qqOpcodes } from './payload-schema.js';
import { verifyCallback } from './verify-callback.js';

/** A callback request as the HTTP layer hands it over: header names in lower case, the body as received. */
export type CallbackRequest = {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly rawBody: string;
  readonly now: Date;
};

/** What to answer, and what the request carried. */
export type CallbackOutcome = {
  readonly status: number;
  /** JSON text, or empty for none. */
  readonly body: string;
  /** An op-0 event whose signature held: the channel turns it into inbound work (after answering). */
  readonly dispatch?: QqPayload;
  /** Why the request was refused, for the log. */
  readonly refusal?: string;
};

/** What the handler checks requests against. */
export type CallbackSettings = {
  readonly key: QqSigningKey;
  /** The bot's app id: a request whose `X-Bot-Appid` names another bot is refused. */
  readonly appId: string;
  /** Refuse timestamps further than this from the clock (unset: the docs name no limit). */
  readonly toleranceSeconds?: number;
};

const ack = JSON.stringify({ op: qqOpcodes.callbackAck, d: 0 });

/**
 * Answers one webhook callback. Every request, op 13 included, must be signed by the platform (sign.md: each
 * callback); op 13 is then answered only for a challenge of the documented shape, op 0 acknowledged with op 12.
 */
export function handleCallback(settings: CallbackSettings, request: CallbackRequest): CallbackOutcome {
  const appId = header(request, 'x-bot-appid');
  if (appId !== undefined && appId !== settings.appId) return refuse(403, `X-Bot-Appid ${appId.slice(0, 32)} is not this bot`);
  const signature = verifyCallback({
    key: settings.key,
    timestamp: header(request, 'x-signature-timestamp'),
    signature: header(request, 'x-signature-ed25519'),
    body: request.rawBody,
    now: request.now,
    ...(settings.toleranceSeconds === undefined ? {} : { toleranceSeconds: settings.toleranceSeconds }),
  });
  if (!signature.ok) return refuse(401, signature.message);
  const parsed = parsePayload(request.rawBody);
  if (!parsed.ok) return refuse(400, parsed.reason);
  const { payload } = parsed;
  if (payload.op === qqOpcodes.callbackValidation) {
    const answer = answerValidation(settings.key, payload.d);
    return answer.ok ? { status: 200, body: JSON.stringify(answer.answer) } : refuse(400, answer.reason);
  }
  if (payload.op === qqOpcodes.dispatch) return { status: 200, body: ack, dispatch: payload };
  return refuse(400, `op ${payload.op} is not sent to callbacks`);
}

function header(request: CallbackRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

function refuse(status: number, refusal: string): CallbackOutcome {
  return { status, body: JSON.stringify({ error: refusal }), refusal };
}
