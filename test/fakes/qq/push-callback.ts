import type { KeyObject } from 'node:crypto';
import { platformSign, platformVerify } from './qq-signing.js';

/** What the bot's callback URL answered to one push. */
export type CallbackPushResult = {
  readonly status: number;
  readonly body: string;
  /** For op 0: the bot answered 200/204 with op 12 (or no body), as event-emit.md asks. For op 13: the answer's signature held. */
  readonly accepted: boolean;
};

/** POSTs a payload to the bot's callback URL as the platform does: signed over `X-Signature-Timestamp + body`. */
export async function pushCallback(input: {
  readonly url: string;
  readonly key: KeyObject;
  readonly appId: string;
  readonly payload: Record<string, unknown>;
  readonly timestamp: string;
  /** Sign with this instead (an attacker without the secret), or send unsigned with `null`. */
  readonly forgedSignature?: string | null;
}): Promise<CallbackPushResult> {
  const body = JSON.stringify(input.payload);
  const signature = input.forgedSignature === undefined ? platformSign(input.key, input.timestamp, body) : input.forgedSignature;
  const response = await fetch(input.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'QQBot-Callback',
      'x-bot-appid': input.appId,
      ...(signature === null ? {} : { 'x-signature-method': 'Ed25519', 'x-signature-timestamp': input.timestamp, 'x-signature-ed25519': signature }),
    },
    body,
    signal: AbortSignal.timeout(3000),
  });
  const text = await response.text();
  return { status: response.status, body: text, accepted: isAccepted(input, response.status, text) };
}

function isAccepted(input: { readonly key: KeyObject; readonly payload: Record<string, unknown> }, status: number, text: string): boolean {
  if (input.payload.op === 13) {
    const challenge = input.payload.d as { plain_token: string; event_ts: string };
    const answer = readJson(text) as { plain_token?: unknown; signature?: unknown } | undefined;
    return status === 200 && answer?.plain_token === challenge.plain_token && typeof answer.signature === 'string' && platformVerify(input.key, challenge.event_ts, challenge.plain_token, answer.signature);
  }
  if (status === 204 || (status === 200 && text === '')) return true;
  return status === 200 && (readJson(text) as { op?: unknown } | undefined)?.op === 12;
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
