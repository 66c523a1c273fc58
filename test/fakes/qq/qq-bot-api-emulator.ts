import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulatedGateway, type EmulatedGateway } from './emulated-gateway.js';
import { admitMessage, type DeliveredMessage, type PlatformRefusal } from './passive-reply-ledger.js';
import { type CallbackPushResult, pushCallback } from './push-callback.js';
import { platformKey } from './qq-signing.js';

/** A message the bot sent and QQ took. */
export type EmulatedBotMessage = { readonly id: string; readonly scene: 'c2c' | 'group'; readonly chat: string; readonly content: string; readonly msgId?: string; readonly msgSeq?: number };

/** A send QQ refused, as the bot was told. */
export type EmulatedRefusal = PlatformRefusal & { readonly scene: 'c2c' | 'group'; readonly chat: string };

/** An inbound message the emulator created: where it went, and (webhook) what the bot answered. */
export type EmulatedInbound = { readonly msgId: string; readonly eventId: string; readonly push?: CallbackPushResult; readonly sessionsReached?: number };

/** A QQ Bot API v2 emulator on 127.0.0.1, following bot.q.qq.com/wiki (api-v2): token, messages, callbacks, gateway. */
export type QqBotApiEmulator = {
  readonly appId: string;
  readonly secret: string;
  /** Serves both the token endpoint (bots.qq.com in production) and the OpenAPI (api.sgroup.qq.com). */
  readonly apiRoot: string;
  readonly gateway: EmulatedGateway;
  /** The emulator's clock: the reply windows and token lifetimes count on it. */
  now(): Date;
  /** Moves the emulator's clock forward. */
  advance(ms: number): void;
  /** Where webhook mode delivers events; unset, events go to the websocket gateway. */
  setCallbackUrl(url: string | undefined): void;
  /** A person writes to the bot in a private chat (C2C_MESSAGE_CREATE). */
  userSends(input: { readonly openid: string; readonly content: string }): Promise<EmulatedInbound>;
  /** A group member @-mentions the bot (GROUP_AT_MESSAGE_CREATE; QQ removes the mention and leaves a leading blank). */
  memberMentionsBot(input: { readonly groupOpenid: string; readonly memberOpenid: string; readonly content: string }): Promise<EmulatedInbound>;
  /**
   * Delivers an event again, as QQ does when it got no acknowledgement (a restart, a timeout): the same event id and
   * message, signed anew, to the callback URL or the websocket gateway.
   */
  deliverAgain(eventId: string): Promise<EmulatedInbound>;
  /** op 13 to the callback URL, as the console does when the URL is saved; `accepted` when the answer verifies. */
  validateCallback(challenge?: { readonly plain_token: string; readonly event_ts: string }): Promise<CallbackPushResult>;
  sentMessages(): EmulatedBotMessage[];
  refusals(): EmulatedRefusal[];
  tokenRequests(): number;
  stop(): Promise<void>;
};

/** Options: the bot's credentials, the token lifetime (7200 s in production) and the heartbeat interval the gateway asks for. */
export type QqEmulatorOptions = { readonly appId?: string; readonly secret?: string; readonly tokenLifetimeSeconds?: number; readonly heartbeatIntervalMs?: number };

const groupAndC2cIntent = 1 << 25;
const passiveEventTypes = new Set(['INTERACTION_CREATE', 'C2C_MSG_RECEIVE', 'FRIEND_ADD', 'GROUP_ADD_ROBOT', 'GROUP_MSG_RECEIVE']);

/** Starts the emulator on a free port. */
export async function startQqBotApiEmulator(options: QqEmulatorOptions = {}): Promise<QqBotApiEmulator> {
  const appId = options.appId ?? '102000001';
  const secret = options.secret ?? 'DG5g3B4j9X2KOErG';
  const lifetimeMs = (options.tokenLifetimeSeconds ?? 7200) * 1000;
  const key = platformKey(secret);
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const tokens = new Map<string, number>();
  let current: { value: string; expiresAt: number } | undefined;
  let tokenRequests = 0;
  let callbackUrl: string | undefined;
  const delivered = new Map<string, DeliveredMessage>();
  const passiveEventIds = new Map<string, { chat: string; at: number }>();
  const sent: EmulatedBotMessage[] = [];
  const events = new Map<string, { readonly type: string; readonly data: Record<string, unknown> }>();
  const refused: EmulatedRefusal[] = [];
  const isValidToken = (authorization: unknown) => {
    const match = typeof authorization === 'string' ? /^QQBot (\S+)$/.exec(authorization) : null;
    const expiresAt = match?.[1] === undefined ? undefined : tokens.get(match[1]);
    return expiresAt !== undefined && expiresAt > now();
  };
  const gateway = createEmulatedGateway({ heartbeatIntervalMs: options.heartbeatIntervalMs ?? 45_000, isValidToken, botUser: { id: '6158788878435714165', username: 'echo-test-bot' } });

  const issueToken = (body: Record<string, unknown>) => {
    tokenRequests += 1;
    if (body.appId !== appId || body.clientSecret !== secret) return { code: 100016, message: 'invalid appid or secret' };
    // api-use.md: the same token until its last 60 s, then a new one while the old stays valid to its end.
    if (!current || current.expiresAt - now() <= 60_000) {
      current = { value: randomBytes(24).toString('base64url'), expiresAt: now() + lifetimeMs };
      tokens.set(current.value, current.expiresAt);
    }
    return { access_token: current.value, expires_in: String(Math.ceil((current.expiresAt - now()) / 1000)) };
  };

  const postMessage = (scene: 'c2c' | 'group', chat: string, body: Record<string, unknown>): { status: number; json: unknown } => {
    const refuse = (refusal: PlatformRefusal) => {
      refused.push({ ...refusal, scene, chat });
      return { status: refusal.status, json: { message: refusal.message, code: refusal.code, err_code: refusal.code, trace_id: randomUUID() } };
    };
    if (body.msg_type !== 0) return refuse({ status: 400, code: 12002, message: 'RequestInvalid: the emulator takes msg_type 0 (text)' });
    if (typeof body.content !== 'string' || body.content.trim() === '') return refuse({ status: 400, code: 12002, message: 'RequestInvalid: content is required' });
    const refusal = admitMessage({ delivered, scene, chat, msgId: body.msg_id, msgSeq: body.msg_seq, eventId: body.event_id, passiveEventIds, now: now() });
    if (refusal) return refuse(refusal);
    const id = `ROBOT1.0_${randomBytes(12).toString('base64url')}`;
    sent.push({ id, scene, chat, content: body.content, ...(typeof body.msg_id === 'string' ? { msgId: body.msg_id, msgSeq: typeof body.msg_seq === 'number' ? body.msg_seq : 1 } : {}) });
    return { status: 200, json: { id, timestamp: Math.floor(now() / 1000) } };
  };

  const route = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://emulator');
    const body = request.method === 'POST' ? await readJson(request) : {};
    const answer = (status: number, json: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    if (request.method === 'POST' && url.pathname === '/app/getAppAccessToken') return answer(200, issueToken(body));
    if (!isValidToken(request.headers.authorization)) {
      const code = request.headers.authorization === undefined ? 11241 : 11243;
      return answer(401, { message: code === 11241 ? 'ErrorWrongToken' : 'ErrorCheckTokenNotPass', code, err_code: code, trace_id: randomUUID() });
    }
    if (request.method === 'GET' && url.pathname === '/gateway') return answer(200, { url: `ws://127.0.0.1:${port}/websocket` });
    const c2c = /^\/v2\/users\/([^/]+)\/messages$/.exec(url.pathname);
    const group = /^\/v2\/groups\/([^/]+)\/messages$/.exec(url.pathname);
    if (request.method === 'POST' && (c2c || group)) {
      const result = postMessage(c2c ? 'c2c' : 'group', decodeURIComponent((c2c ?? group)?.[1] ?? ''), body);
      return answer(result.status, result.json);
    }
    answer(404, { message: 'not found', code: 404 });
  };

  const server = createServer((request, response) => {
    route(request, response).catch(() => response.writeHead(500).end());
  });
  server.on('upgrade', (request, socket, head) => {
    if (request.url?.startsWith('/websocket')) gateway.handleUpgrade(request, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const deliver = async (type: string, scene: 'c2c' | 'group', chat: string, data: Record<string, unknown>): Promise<EmulatedInbound> => {
    const eventId = `${type}:${randomBytes(8).toString('hex')}`;
    delivered.set(data.id as string, { id: data.id as string, scene, chat, receivedAt: now(), replies: 0, seqs: new Set() });
    if (passiveEventTypes.has(type)) passiveEventIds.set(eventId, { chat, at: now() });
    events.set(eventId, { type, data });
    return push(eventId, type, data);
  };

  const push = async (eventId: string, type: string, data: Record<string, unknown>): Promise<EmulatedInbound> => {
    if (callbackUrl === undefined) return { msgId: data.id as string, eventId, sessionsReached: gateway.dispatch(type, data, groupAndC2cIntent, eventId) };
    const push = await pushCallback({ url: callbackUrl, key, appId, timestamp: String(Math.floor(now() / 1000)), payload: { op: 0, id: eventId, d: data, t: type } });
    return { msgId: data.id as string, eventId, push };
  };

  return {
    appId,
    secret,
    apiRoot: `http://127.0.0.1:${port}`,
    gateway,
    now: () => new Date(now()),
    advance: (ms) => {
      offsetMs += ms;
    },
    setCallbackUrl: (url) => {
      callbackUrl = url;
    },
    userSends: ({ openid, content }) =>
      deliver('C2C_MESSAGE_CREATE', 'c2c', openid, { id: messageId(), author: { user_openid: openid }, content, timestamp: new Date(now()).toISOString() }),
    memberMentionsBot: ({ groupOpenid, memberOpenid, content }) =>
      deliver('GROUP_AT_MESSAGE_CREATE', 'group', groupOpenid, { id: messageId(), author: { member_openid: memberOpenid }, content: ` ${content}`, group_openid: groupOpenid, timestamp: new Date(now()).toISOString() }),
    deliverAgain: async (eventId) => {
      const event = events.get(eventId);
      if (event === undefined) throw new Error(`no event ${eventId} was delivered`);
      return push(eventId, event.type, event.data);
    },
    validateCallback: async (challenge) => {
      if (callbackUrl === undefined) throw new Error('setCallbackUrl first');
      const d = challenge ?? { plain_token: randomBytes(15).toString('base64url').slice(0, 20), event_ts: String(Math.floor(now() / 1000)) };
      return pushCallback({ url: callbackUrl, key, appId, timestamp: String(Math.floor(now() / 1000)), payload: { op: 13, d } });
    },
    sentMessages: () => [...sent],
    refusals: () => [...refused],
    tokenRequests: () => tokenRequests,
    stop: async () => {
      await gateway.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function messageId(): string {
  return `ROBOT1.0_${randomBytes(18).toString('base64url')}`;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
