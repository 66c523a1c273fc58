import type { Leadership, LeadershipPort } from '../../src/cluster/leadership.js';
import { createDedupe, type DedupeRow } from '../../src/dedupe/create-dedupe.js';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';
import { createAccessTokenClient } from './access-token-client.js';
import { createPassiveReplies } from './create-passive-replies.js';
import { createQqIntake, type QqDispatch } from './create-qq-intake.js';
import { createQqSender } from './create-qq-sender.js';
import { createSharedReplySequence, type ReplyCount } from './create-shared-reply-sequence.js';
import { deriveSigningKey } from './derive-signing-key.js';
import { createGatewaySession, type GatewaySession, type GatewaySocket } from './gateway-session.js';
import { createHeldReplies } from './held-replies.js';
import { qqIntents } from './intents.js';
import { createQqCallbackRoute } from './qq-callback-route.js';
import { parseQqChatId } from './qq-chat-id.js';
import type { QqConfig } from './qq-config.js';
import { qqCallbackPath, tokenRootOf } from './qq-settings.js';
import type { QqMessages } from './qq-strings.js';
import { renderForQq } from './render-for-qq.js';
import { createReplyAnchors } from './reply-anchors.js';

/** What the QQ channel is built from. */
export type QqChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
  /** Validated settings with both credentials set (the adapter checks). */
  readonly settings: QqConfig;
  /** The core's strings and QQ's, in the channel's locale. */
  readonly messages: QqMessages;
  readonly logger: Logger;
  /** Store namespace of handled message ids (`qq-messages`): a restart does not answer a message twice. */
  readonly seenMessages: KeyValueNamespace<DedupeRow>;
  readonly dedupeTtlMs: number;
  /** Cluster mode, websocket: only the instance holding the bot's gateway connection connects; any instance sends. */
  readonly leadership?: LeadershipPort;
  /** Cluster mode: replies to a message numbered in the shared store (`qq-reply-counts`), since any instance sends. */
  readonly replyCounts?: KeyValueNamespace<ReplyCount>;
  /** IANA zone times on cards are shown in. */
  readonly timezone?: string;
  readonly now?: () => Date;
  readonly fetch?: typeof fetch;
  /** Websocket seams for tests: the socket factory and the wait before reconnect attempt n. */
  readonly connect?: (url: string) => GatewaySocket;
  readonly reconnectDelayMs?: (attempt: number) => number;
};

/** The QQ channel, with the gateway route it serves in webhook mode. */
export type QqChannel = Channel & { readonly callbackRoute?: HttpRoute };

/** The QQ Bot API v2 channel: private chats and group @-messages in, passive replies out (HTTP API called directly). */
export function createQqChannel(options: QqChannelOptions): QqChannel {
  const { settings, logger } = options;
  const now = options.now ?? (() => new Date());
  const appId = settings.appId ?? '';
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const tokens = createAccessTokenClient({ appId, clientSecret: settings.appSecret ?? '', tokenRoot: tokenRootOf(settings), now, ...fetchOption });
  const replySequence = options.replyCounts === undefined ? undefined : createSharedReplySequence({ counts: options.replyCounts, appId });
  const sender = createQqSender({ apiRoot: settings.apiRoot, tokens, now, ...fetchOption, ...(replySequence === undefined ? {} : { replySequence }) });
  const anchors = createReplyAnchors();
  const replies = createPassiveReplies({ sender, anchors, held: createHeldReplies(), messages: options.messages, messageChars: settings.limits.messageChars, now });
  const dedupe = createDedupe({ store: options.seenMessages, keyPrefix: appId, ttlMs: options.dedupeTtlMs, memoryLimit: 5000 });
  const intake = createQqIntake({ channelName: options.name, settings, replies, anchors, dedupe, messages: options.messages, logger, now });
  let emit: Emit | undefined;
  let status: ChannelStatus = { state: 'stopped' };
  let session: GatewaySession | undefined;
  let connection: Leadership | undefined;
  // Websocket events are handled one after another, so the runtime sees them in the order QQ sent them.
  let queue: Promise<unknown> = Promise.resolve();

  const handle = (dispatch: QqDispatch) => {
    const current = emit;
    if (!current) return Promise.resolve('unavailable' as const);
    const handled = queue.then(() => intake.handle(dispatch, current));
    queue = handled.catch((error: unknown) => logger.error({ err: error }, 'QQ: handling an event failed'));
    return handled;
  };

  const callbackRoute =
    settings.mode === 'webhook'
      ? createQqCallbackRoute({ settings: { key: deriveSigningKey(settings.appSecret ?? ''), appId }, intake: () => (emit ? handle : undefined), logger, now })
      : undefined;

  // Websocket mode: opens the gateway session (not awaited: an unreachable gateway is a degraded channel that keeps trying).
  const connect = () => {
    status = { state: 'starting', detail: 'connecting to the QQ gateway' };
    const opened = createGatewaySession({
      apiRoot: settings.apiRoot,
      tokens,
      intents: qqIntents.groupAndC2cEvent,
      onDispatch: (dispatch) => void handle({ type: dispatch.type, data: dispatch.data, ...(dispatch.id === undefined ? {} : { id: dispatch.id }) }),
      onNotice: (notice) => logger[notice.level]({ component: 'qq-gateway' }, notice.message),
      ...fetchOption,
      ...(options.connect ? { connect: options.connect } : {}),
      ...(options.reconnectDelayMs ? { reconnectDelayMs: options.reconnectDelayMs } : {}),
    });
    session = opened;
    void opened.start().then((result) => {
      if (!result.ok && result.message !== 'stopped') status = { state: 'degraded', detail: result.message };
    });
  };

  return {
    name: options.name,
    ...(callbackRoute ? { callbackRoute } : {}),
    async start(givenEmit) {
      emit = givenEmit;
      if (settings.mode === 'webhook') {
        status = { state: 'running', detail: `webhook at ${qqCallbackPath}` };
        return;
      }
      if (options.leadership === undefined) {
        connect();
        return;
      }
      // Two connections of one bot would each get its events: only the instance holding the role connects.
      status = { state: 'running', detail: 'standby: another instance holds the QQ gateway connection' };
      connection = options.leadership.lead(`qq:${appId}`, {
        onAcquired: () => {
          if (emit === undefined) return;
          logger.info('this instance holds the QQ gateway connection now');
          connect();
        },
        onLost: () => {
          session?.stop();
          session = undefined;
          if (emit !== undefined) status = { state: 'running', detail: 'standby: another instance holds the QQ gateway connection' };
        },
      });
    },
    async send(event) {
      const chatId = event.target.chatId;
      const target = parseQqChatId(chatId);
      if (!target) return { ok: false, error: `"${chatId}" is not a QQ chat id (c2c:<openid> or group:<openid>).`, retryable: false };
      const texts = renderForQq(event, { messages: options.messages, messageChars: settings.limits.messageChars, scene: target.scene, ...(options.timezone ? { timezone: options.timezone } : {}) });
      if (texts.length === 0) return { ok: true };
      const holdWhenRefused = event.type === 'reply' && event.kind !== 'progress';
      const delivery = await replies.send(chatId, texts, { ...(event.target.replyToMessageId === undefined ? {} : { replyTo: event.target.replyToMessageId }), holdWhenRefused });
      if (!delivery.ok) logger.warn({ chatId, eventType: event.type, error: delivery.error }, 'QQ: not delivered');
      if (delivery.ok && event.type === 'file') return { ok: false, error: 'The QQ channel sends text only: the file was not sent (the person was told).', retryable: false };
      return delivery;
    },
    async stop() {
      await connection?.stop();
      connection = undefined;
      session?.stop();
      session = undefined;
      emit = undefined;
      await queue;
      status = { state: 'stopped' };
    },
    status() {
      if (session === undefined || status.state === 'degraded' || status.state === 'stopped') return status;
      const snapshot = session.snapshot();
      if (snapshot.connected) return { state: 'running', detail: 'websocket gateway connected' };
      return snapshot.sessionId === undefined ? status : { state: 'degraded', detail: 'websocket gateway reconnecting' };
    },
  };
}
