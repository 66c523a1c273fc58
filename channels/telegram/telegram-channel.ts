import type { Leadership, LeadershipPort } from '../../src/cluster/leadership.js';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { HttpRoute } from '../../src/gateway/http-route.js';
import type { TelegramMessages } from './telegram-strings.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import { createDedupe, type DedupeRow } from '../../src/dedupe/create-dedupe.js';
import { abortableSleep, backoffDelay } from '../../src/retry/backoff-delay.js';
import { type BotApi, createBotApi } from './bot-api.js';
import { createChatThrottle, type ThrottleLimits, telegramLimits } from './chat-throttle.js';
import { createOutboundDelivery } from './deliver-outbound.js';
import { createUpdateDispatcher } from './dispatch-update.js';
import { createDraftStreams } from './draft-streams.js';
import { escapeHtml } from './escape-html.js';
import { createMediaDownloader } from './media-download.js';
import { type PollingLoop, type PollingTuning, startPollingLoop } from './polling-loop.js';
import { createStrangerNotices } from './stranger-notices.js';
import { createTelegramSender } from './telegram-sender.js';
import { createTelegramTransport } from './telegram-transport.js';
import type { BotIdentity } from './to-event.js';
import { telegramAllowedUpdates } from './update-schema.js';
import { createWebhookRoute, webhookPathOf } from './webhook-route.js';

/** Everything the Telegram channel is built from (the wiring fills it from `channels.telegram`). */
export type TelegramChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
  readonly token: string;
  readonly apiRoot: string;
  readonly mode: 'polling' | 'webhook';
  /** Public https URL given to setWebhook (webhook mode). */
  readonly webhookUrl?: string;
  /** `secret_token` checked on every webhook request (webhook mode). */
  readonly webhookSecret?: string;
  readonly allowFrom: readonly string[];
  readonly approvers: readonly string[];
  readonly groups: readonly string[];
  readonly sessionPerUser: boolean;
  readonly streaming: boolean;
  readonly messages: TelegramMessages;
  readonly logger: Logger;
  readonly store: Store;
  /** IANA zone for times on cards. */
  readonly timezone: string;
  readonly polling?: PollingTuning;
  /** Polling mode: only the instance that leads `telegram:<bot id>` polls (cluster mode); default: this process alone. */
  readonly leadership?: LeadershipPort;
  /** How long handled update ids are kept to drop re-deliveries; default 24 h (Telegram's own retry window). */
  readonly dedupeTtlMs?: number;
  readonly limits?: ThrottleLimits;
  /** How long the parts of an album are collected into one message. */
  readonly albumWindowMs?: number;
  /** First backoff of retried calls (network errors, 5xx). */
  readonly retryBaseMs?: number;
  /** Another Bot API client (tests). */
  readonly api?: BotApi;
  readonly now?: () => Date;
};

/** The Telegram channel; in webhook mode it also carries the route the HTTP gateway mounts. */
export type TelegramChannel = Channel & {
  readonly webhookRoute?: HttpRoute;
};

type Command = keyof TelegramMessages['telegramCommands'];
const commands: readonly Command[] = ['start', 'help', 'new', 'approvals', 'approve', 'deny', 'cancel', 'usage', 'budget'];

/** Creates the Telegram channel: polling (default) or webhook, inline-button approvals, a transport that holds under load. */
export function createTelegramChannel(options: TelegramChannelOptions): TelegramChannel {
  const logger = options.logger.child({ component: 'telegram' });
  const botKey = options.token.split(':')[0] ?? 'bot';
  const api = options.api ?? createBotApi({ token: options.token, apiRoot: options.apiRoot });
  const transport = createTelegramTransport({ api, throttle: createChatThrottle(options.limits ?? telegramLimits), logger, token: options.token, retryBaseMs: options.retryBaseMs });
  const sender = createTelegramSender(transport);
  const delivery = createOutboundDelivery({
    channel: options.name,
    transport,
    sender,
    drafts: createDraftStreams({
      // Drafts are the raw text so far, sent without markup: half-written Markdown is not valid HTML yet.
      surface: {
        send: async (target, text) => {
          const sent = await sender.send(target, escapeHtml(text), { plain: true, replyTo: target.replyToMessageId });
          return sent.ok && sent.messageId !== undefined ? Number(sent.messageId) : undefined;
        },
        edit: async (target, messageId, text) => void (await sender.edit(target, messageId, escapeHtml(text), { plain: true })),
      },
    }),
    sentTexts: options.store.namespace<string>('telegram-sent-texts'),
    text: options.messages,
    timezone: options.timezone,
    streaming: options.streaming,
    logger,
  });

  let status: ChannelStatus = { state: 'stopped' };
  let emitter: Emit | undefined;
  let bot: BotIdentity | undefined;
  let isSetUp = false;
  let loop: PollingLoop | undefined;
  let polling: Leadership | undefined;
  const stopping = new AbortController();

  let getMeFailures = 0;
  const identify = async (): Promise<BotIdentity | undefined> => {
    if (bot) return bot;
    const me = await transport.call<{ id?: number; username?: string }>('getMe', {}, { policy: 'none', timeoutMs: 10_000 });
    if (me.ok && typeof me.value?.id === 'number' && typeof me.value.username === 'string') bot = { id: me.value.id, username: me.value.username };
    else if (!me.ok) {
      // Said once at warn level; while the Bot API stays unreachable the polling loop reports the outage itself.
      if (getMeFailures === 0) logger.warn({ error: me.error }, 'telegram getMe failed; group mentions cannot be recognised until it works');
      else logger.debug({ error: me.error, attempts: getMeFailures + 1 }, 'telegram getMe failed again');
      getMeFailures += 1;
    }
    return bot;
  };

  // getMe, commands and the webhook (or its removal, for polling): once, retried before polls until done.
  const setUp = async (): Promise<boolean> => {
    if (isSetUp) return true;
    if (!(await identify())) return false;
    const menu = commands.map((command) => ({ command, description: options.messages.telegramCommands[command] }));
    const registered = await transport.call('setMyCommands', { commands: menu }, { policy: 'none', timeoutMs: 10_000 });
    if (!registered.ok) logger.debug({ error: registered.error }, 'setMyCommands not supported by this Bot API server; commands still work when typed');
    if (options.mode === 'webhook') {
      const set = await transport.call(
        'setWebhook',
        { url: options.webhookUrl, secret_token: options.webhookSecret, allowed_updates: telegramAllowedUpdates },
        { policy: 'idempotent', timeoutMs: 10_000 },
      );
      if (!set.ok) {
        logger.error({ error: set.error }, 'telegram setWebhook failed');
        return false;
      }
    } else {
      // A webhook left set makes every getUpdates answer 409.
      const removed = await transport.call('deleteWebhook', { drop_pending_updates: false }, { policy: 'idempotent', timeoutMs: 10_000 });
      if (!removed.ok) logger.debug({ error: removed.error }, 'telegram deleteWebhook failed');
    }
    isSetUp = true;
    return true;
  };

  const dispatch = createUpdateDispatcher({
    channel: options.name,
    lists: { allowFrom: options.allowFrom, approvers: options.approvers, groups: options.groups },
    sessionPerUser: options.sessionPerUser,
    ownCommands: commands,
    bot: async () => bot ?? identify(),
    emit: () => emitter,
    // Telegram re-delivers unacknowledged updates for about a day: claims last storage.dedupeHours (24 h by default).
    dedupe: createDedupe({ store: options.store.namespace<DedupeRow>('telegram-updates'), keyPrefix: botKey, ttlMs: options.dedupeTtlMs ?? 24 * 60 * 60 * 1000, memoryLimit: 1000 }),
    strangers: createStrangerNotices({ store: options.store.namespace<string>('telegram-strangers'), now: options.now }),
    sender,
    transport,
    text: options.messages,
    logger,
    rememberQuestionPress: delivery.rememberQuestionPress,
    now: options.now,
    albumWindowMs: options.albumWindowMs,
  });

  // Webhook mode has no loop to retry setWebhook before each poll: retry it here until it works.
  const retrySetUpUntilDone = async () => {
    for (let attempt = 1; !stopping.signal.aborted; attempt += 1) {
      await abortableSleep(backoffDelay(attempt, { baseMs: 1000, maxMs: 60_000 }), stopping.signal);
      if (!stopping.signal.aborted && (await setUp())) {
        status = { state: 'running' };
        return;
      }
    }
  };

  const webhookRoute =
    options.mode === 'webhook' ? createWebhookRoute({ path: webhookPathOf(options.webhookUrl ?? ''), secret: options.webhookSecret ?? '', dispatch, logger }) : undefined;
  const downloader = createMediaDownloader({ transport, apiRoot: options.apiRoot, token: options.token });

  return {
    name: options.name,
    ...(webhookRoute ? { webhookRoute } : {}),
    async start(emit) {
      emitter = emit;
      status = { state: 'starting' };
      const ready = await setUp();
      status = ready ? { state: 'running' } : { state: 'degraded', detail: 'Telegram not reachable yet; retrying' };
      if (options.mode === 'webhook' && !ready) void retrySetUpUntilDone();
      if (options.mode === 'polling') {
        const startLoop = () => {
          loop = startPollingLoop({
            ...options.polling,
            transport,
            dispatch,
            offsets: options.store.namespace<number>('channel-offsets'),
            offsetKey: `telegram:${botKey}`,
            logger,
            beforePoll: setUp,
            onStatus: (next) => {
              status = next;
            },
          });
        };
        if (!options.leadership) startLoop();
        else {
          // Two pollers of one token get 409 from Telegram and each other's updates: only the leader polls.
          status = { state: 'running', detail: 'standby: another instance polls this bot' };
          polling = options.leadership.lead(`telegram:${botKey}`, {
            onAcquired: () => {
              logger.info('this instance polls the bot now');
              status = { state: 'running', detail: 'polling (this instance leads)' };
              startLoop();
            },
            onLost: async () => {
              const current = loop;
              loop = undefined;
              await current?.stop();
              if (!stopping.signal.aborted) status = { state: 'running', detail: 'standby: another instance polls this bot' };
            },
          });
        }
      }
    },
    send: (event) => delivery.send(event),
    async stop() {
      emitter = undefined;
      stopping.abort();
      await polling?.stop();
      await loop?.stop();
      loop = undefined;
      status = { state: 'stopped' };
    },
    status: () => status,
    downloadMedia: (reference, destination) => downloader.download(reference.id, destination),
  };
}
