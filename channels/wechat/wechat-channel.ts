import { resolve } from 'node:path';
import type { Message, Wechaty } from 'wechaty';
import type { HandOff } from '../../src/cluster/hand-off.js';
import type { Leadership, LeadershipPort } from '../../src/cluster/leadership.js';
import type { WechatConfig } from './wechat-config.js';
import { describeError } from '../../src/errors/echo-error.js';
import { createDedupe, type DedupeRow } from '../../src/dedupe/create-dedupe.js';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { WechatMessages } from './wechat-strings.js';
import type { Delivery, OutboundEvent } from '../../src/events/outbound-event.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';
import { checkAccess } from './check-access.js';
import { createReconnector } from './create-reconnector.js';
import { createSendPacer } from './create-send-pacer.js';
import { createWechatSender } from './create-wechat-sender.js';
import { keepSessionOnStop } from './keep-session-on-stop.js';
import { loadWechaty, type WechatyModule, type WechatyPuppet } from './load-wechaty.js';
import { readMessageData } from './read-message-data.js';
import { renderForWechat } from './render.js';
import { renderQrCode } from './render-qr-code.js';
import { saveFileBox } from './save-file-box.js';
import { toEvent } from './to-event.js';

/** The `channels.wechat` section of the config. */
export type WechatSettings = WechatConfig;

/** What the WeChat channel is built from. */
export type WechatChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
  readonly settings: WechatSettings;
  /** Folder of the login memory card (`wechat.memory-card.json`), kept across restarts. */
  readonly dataDir: string;
  readonly messages: WechatMessages;
  readonly logger: Logger;
  /** Store namespace of seen message ids (`wechat-messages`). */
  readonly seenMessages: KeyValueNamespace<DedupeRow>;
  /** IANA zone times on cards are shown in. */
  readonly timezone?: string;
  /** A puppet instance instead of the configured package (tests: wechaty-puppet-mock). Never read from config. */
  readonly puppet?: WechatyPuppet;
  /** Least time between two sends in one conversation; default 1000 ms. */
  readonly sendIntervalMs?: number;
  /** Random extra wait up to this; default 400 ms. */
  readonly sendJitterMs?: number;
  /** First reconnect delay after a logout or failed start, doubled per attempt up to 5 minutes; default 2000 ms. */
  readonly reconnectDelayMs?: number;
  /** Where the QR code and its URL are printed; default stdout. */
  readonly printQrCode?: (text: string) => void;
  readonly now?: () => Date;
  /**
   * Cluster mode: only the instance that leads `wechat:<puppet>` logs in; the others hand their sends to it
   * through `handOff`. Default: this process alone.
   */
  readonly cluster?: { readonly leadership: LeadershipPort; readonly handOff: HandOff };
};

/** The queue sends go through to the instance holding the login (cluster mode). */
const outboundTopic = 'echo-wechat-outbound';

const seenMessageTtlMs = 3 * 24 * 60 * 60 * 1000;

/** The WeChat channel: wechaty is loaded in start(), never before, so start-up without WeChat does not pay for it. */
export function createWechatChannel(options: WechatChannelOptions): Channel {
  const { settings, messages, logger } = options;
  const now = options.now ?? (() => new Date());
  const printQrCode = options.printQrCode ?? ((text: string) => void process.stdout.write(`${text}\n`));
  const dedupe = createDedupe({ store: options.seenMessages, ttlMs: seenMessageTtlMs, memoryLimit: 5000 });
  const pacer = createSendPacer({ intervalMs: options.sendIntervalMs ?? 1000, jitterMs: options.sendJitterMs ?? 400 });
  let bot: Wechaty | undefined;
  // Set by start(): what a restart needs to build a fresh bot.
  let started: { readonly emit: Emit; readonly wechaty: WechatyModule } | undefined;
  let status: ChannelStatus = { state: 'stopped' };
  let stopping = false;
  let restarting = false;
  let waitingForScan = false;
  let loggedInBefore = false;
  let lastError = { detail: '', at: 0 };
  // Messages are handled one after another, so the bus sees them in the order they arrived.
  let intake: Promise<void> = Promise.resolve();

  // Media messages by id, so their files can be fetched when the turn reads them; bounded, newest kept.
  const mediaMessages = new Map<string, Message>();
  const rememberMedia = (message: Message) => {
    mediaMessages.set(message.id, message);
    if (mediaMessages.size > 200) mediaMessages.delete(mediaMessages.keys().next().value as string);
  };

  const sender = createWechatSender({
    pacer,
    logger,
    port: () => {
      const current = bot;
      if (!current) return undefined;
      return {
        isLoggedIn: () => isLoggedIn(current),
        sendText: async (conversationId, text) => {
          const puppet = puppetOf(current);
          if (!puppet) throw new Error('the puppet is not running');
          const sent = await puppet.messageSendText(conversationId, text);
          return typeof sent === 'string' ? sent : undefined;
        },
        sendFile: async (conversationId, path, fileName) => {
          const puppet = puppetOf(current);
          if (!puppet) throw new Error('the puppet is not running');
          const { FileBox } = await import('file-box');
          // A file box over the path: the puppet reads the file when it uploads it.
          const sent = await puppet.messageSendFile(conversationId, FileBox.fromFile(path, fileName));
          return typeof sent === 'string' ? sent : undefined;
        },
      };
    },
  });

  const reconnector = createReconnector({
    initialDelayMs: options.reconnectDelayMs ?? 2000,
    maxDelayMs: 5 * 60_000,
    logger,
    needsRestart: () => !stopping && bot !== undefined && !isLoggedIn(bot) && !waitingForScan,
    restart: async () => {
      if (!bot || !started) return;
      const previous = bot;
      restarting = true;
      try {
        keepSessionOnStop(puppetOf(previous));
        // A bot whose start failed may refuse to stop; a fresh one is what matters.
        await previous.stop().catch((error: unknown) => logger.debug({ error: describeError(error) }, 'WeChat: stop before restart failed'));
      } finally {
        restarting = false;
      }
      // wechaty does not start a bot again after a failed start, so each attempt gets a new one (same
      // memory card); a puppet given as an instance binds to one bot only, so that bot starts again.
      await startBot(options.puppet ? previous : buildBot(started.wechaty, started.emit));
    },
  });

  /** A new bot with the channel's handlers; it becomes the current one. */
  function buildBot(wechaty: WechatyModule, emit: Emit): Wechaty {
    const current = options.puppet
      ? wechaty.WechatyBuilder.build({ name: resolve(options.dataDir, 'wechat'), puppet: options.puppet })
      : wechaty.WechatyBuilder.build({
          // The memory card keeps the login across restarts where the puppet supports it.
          name: resolve(options.dataDir, 'wechat'),
          // wechaty types the name as its list of official puppets but imports any package name given.
          puppet: settings.puppet as 'wechaty-puppet-wechat4u',
          puppetOptions: settings.puppetToken === undefined ? undefined : { token: settings.puppetToken },
        });
    attachHandlers(current, emit, wechaty);
    bot = current;
    return current;
  }

  /** Starts the bot; a failure is a degraded status and a retry with backoff, never a throw (other channels go on). */
  async function startBot(current: Wechaty): Promise<void> {
    try {
      await current.start();
    } catch (error) {
      status = { state: 'degraded', detail: describeStartFailure(settings.puppet, error) };
      logger.error({ error: describeError(error), puppet: settings.puppet }, 'WeChat: could not start; retrying with backoff');
      reconnector.schedule('start failed');
    }
  }

  async function handleMessage(message: Message, emit: Emit, wechaty: WechatyModule): Promise<void> {
    // The puppet reports the bot's own sends as messages too; never answer ourselves.
    if (message.self()) return;
    const data = await readMessageData(message, wechaty.types.Message);
    const access = checkAccess(data, settings);
    if (!access.allowed) {
      logger.debug({ talkerId: data.talker.id, roomId: data.room?.id, reason: access.reason }, 'WeChat message ignored');
      return;
    }
    if (!(await dedupe.claim(data.messageId))) {
      logger.debug({ messageId: data.messageId }, 'WeChat message seen before; ignored');
      return;
    }
    const chatId = data.room?.id ?? data.talker.id;
    if (data.kind === 'media') rememberMedia(message);
    else if (data.kind !== 'text' || data.text.trim() === '') return;
    const result = await emit(toEvent(data, { channel: options.name, now: now() }));
    if (result.accepted) await dedupe.confirm(data.messageId).catch((error: unknown) => logger.warn({ err: error, messageId: data.messageId }, 'WeChat: dedupe claim not confirmed'));
    // A closed bus means the app is stopping: nobody to tell.
    // WeChat never delivers a message twice: a refused one must be sent again by the person.
    if (!result.accepted && result.reason !== 'closed') await sender.deliver(chatId, [messages.busy]);
  }

  function attachHandlers(current: Wechaty, emit: Emit, wechaty: WechatyModule): void {
    // A bot replaced by a restart may still fire events: only the current one speaks for the channel.
    const isCurrent = () => current === bot;
    current.on('scan', (qrcode, scanStatus) => {
      if (!isCurrent()) return;
      if (scanStatus !== wechaty.ScanStatus.Waiting && scanStatus !== wechaty.ScanStatus.Timeout) {
        logger.info({ scanStatus: wechaty.ScanStatus[scanStatus] }, 'WeChat: QR code status');
        return;
      }
      waitingForScan = true;
      const url = wechaty.qrcodeValueToImageUrl(qrcode);
      status = loggedInBefore ? { state: 'degraded', detail: 'logged out: scan the QR code to log in again' } : { state: 'starting', detail: 'waiting for the QR code to be scanned' };
      logger.info({ url }, 'WeChat: scan the QR code with the WeChat app to log in');
      void renderQrCode(qrcode).then((art) => printQrCode([art, `WeChat login: scan the QR code above, or open ${url}`].filter(Boolean).join('\n')));
    });
    current.on('login', (user) => {
      if (!isCurrent()) return;
      waitingForScan = false;
      loggedInBefore = true;
      reconnector.reset();
      status = { state: 'running', detail: `logged in as ${user.name()}` };
      logger.info({ userId: user.id }, 'WeChat: logged in');
    });
    current.on('logout', (_user, reason) => {
      if (stopping || restarting || !isCurrent()) return;
      waitingForScan = false;
      status = { state: 'degraded', detail: `logged out${reason ? ` (${reason})` : ''}; reconnecting` };
      logger.warn({ reason }, 'WeChat: logged out; reconnecting');
      reconnector.schedule('logged out');
    });
    current.on('stop', () => {
      if (stopping || restarting || !isCurrent()) return;
      status = { state: 'degraded', detail: 'disconnected; reconnecting' };
      logger.warn('WeChat: disconnected; reconnecting');
      reconnector.schedule('disconnected');
    });
    current.on('error', (error) => {
      const detail = describeError(error);
      // Before a login, an error means WeChat cannot be reached (the puppet keeps retrying by itself).
      if (isCurrent() && puppetOf(current) !== undefined && !isLoggedIn(current) && !waitingForScan && !stopping) status = { state: 'degraded', detail: `cannot reach WeChat: ${detail}` };
      // Puppets retry every few seconds and repeat the same error: log it once a minute.
      const at = Date.now();
      if (detail === lastError.detail && at - lastError.at < 60_000) {
        logger.debug({ error: detail }, 'WeChat: error (repeated)');
        return;
      }
      lastError = { detail, at };
      logger.warn({ error: detail }, 'WeChat: error');
    });
    current.on('message', (message) => {
      if (!isCurrent()) return;
      intake = intake.then(() => handleMessage(message, emit, wechaty)).catch((error: unknown) => logger.error({ err: error }, 'WeChat: handling a message failed'));
    });
  }

  let login: Leadership | undefined;
  let stopWorking: (() => Promise<void>) | undefined;

  async function logIn(emit: Emit): Promise<void> {
    status = { state: 'starting', detail: 'loading wechaty' };
    const wechaty = await loadWechaty({ logLevel: logger.level });
    started = { emit, wechaty };
    status = { state: 'starting', detail: 'waiting for login' };
    await startBot(buildBot(wechaty, emit));
  }

  async function logOut(): Promise<void> {
    const wasStopping = stopping;
    stopping = true;
    reconnector.cancel();
    await intake;
    if (bot) keepSessionOnStop(puppetOf(bot));
    await bot?.stop().catch((error: unknown) => logger.warn({ error: describeError(error) }, 'WeChat: did not stop cleanly'));
    bot = undefined;
    stopping = wasStopping;
  }

  async function deliverHere(event: OutboundEvent): Promise<Delivery> {
    const chatId = event.target.chatId;
    if (event.type === 'file') {
      const sent = await sender.deliverFile(chatId, event.path, event.fileName);
      if (!sent.ok || !event.caption) return sent;
      return sender.deliver(chatId, [event.caption]);
    }
    // Real room ids end in @chatroom; configured rooms count too, whatever their form.
    const inRoom = settings.rooms.includes(chatId) || chatId.endsWith('@chatroom');
    const texts = renderForWechat(event, { messages, splitAt: settings.splitAt, timezone: options.timezone, inRoom });
    if (texts.length === 0) return { ok: true };
    return sender.deliver(chatId, texts);
  }

  return {
    name: options.name,
    async start(emit) {
      stopping = false;
      const cluster = options.cluster;
      if (!cluster) {
        await logIn(emit);
        return;
      }
      status = { state: 'running', detail: 'standby: another instance holds the WeChat login' };
      login = cluster.leadership.lead(`wechat:${settings.puppet}`, {
        onAcquired: async () => {
          logger.info('WeChat: this instance holds the login now');
          await logIn(emit);
          stopWorking = await cluster.handOff.work(outboundTopic, async (payload) => {
            const delivery = await deliverHere((payload as { readonly event: OutboundEvent }).event);
            // A send that may work later is retried by the queue; one that never will is dropped with the log line.
            if (!delivery.ok && delivery.retryable) throw new Error(delivery.error);
            if (!delivery.ok) logger.warn({ error: delivery.error }, 'WeChat: a send handed over by another instance failed');
          });
        },
        onLost: async () => {
          await stopWorking?.();
          stopWorking = undefined;
          await logOut();
          if (!stopping) status = { state: 'running', detail: 'standby: another instance holds the WeChat login' };
        },
      });
    },
    async downloadMedia(reference, destination) {
      const message = mediaMessages.get(reference.id);
      if (!message) return { ok: false, error: 'the message is no longer at hand (sent before a restart)' };
      try {
        return await saveFileBox(await message.toFileBox(), destination);
      } catch (error) {
        return { ok: false, error: `WeChat did not give the file: ${describeError(error)}` };
      }
    },
    async send(event) {
      if (options.cluster && login && !login.isLeader()) {
        // The login lives in another instance: the send waits in the queue for it, durably.
        const handed = await options.cluster.handOff.send(outboundTopic, { event });
        return handed ? { ok: true } : { ok: false, error: 'No instance holds the WeChat login, and the send could not be queued for one.', retryable: true };
      }
      return deliverHere(event);
    },
    async stop() {
      stopping = true;
      await login?.stop();
      await logOut();
      status = { state: 'stopped' };
    },
    status: () => status,
  };
}

/** The bot's puppet, or undefined before one is resolved (wechaty's own getters throw, or emit `error`, then). */
function puppetOf(bot: Wechaty): Wechaty['puppet'] | undefined {
  try {
    return bot.puppet;
  } catch {
    return undefined;
  }
}

function isLoggedIn(bot: Wechaty): boolean {
  return puppetOf(bot)?.isLoggedIn === true;
}

/** Why the bot did not start, with the fix when the puppet package is missing. */
function describeStartFailure(puppet: string, error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'ERR_MODULE_NOT_FOUND') return `the puppet package ${puppet} is not installed (npm i -E ${puppet})`;
  return `could not start ${puppet}: ${describeError(error)}`;
}
