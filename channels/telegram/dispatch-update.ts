import type { Dedupe } from '../../src/dedupe/create-dedupe.js';
import { assertNever } from '../../src/events/assert-never.js';
import type { Emit } from '../../src/events/channel.js';
import type { TelegramMessages } from './telegram-strings.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { createAlbumCollector } from './album-collector.js';
import { escapeHtml } from './escape-html.js';
import { type AccessLists, decideAccess } from './decide-access.js';
import type { PressedQuestion } from './deliver-outbound.js';
import type { StrangerNotices } from './stranger-notices.js';
import type { TelegramSender } from './telegram-sender.js';
import type { TelegramTransport } from './telegram-transport.js';
import { type BotIdentity, updateToEvent } from './to-event.js';
import { telegramUpdateSchema } from './update-schema.js';

/**
 * What became of one update. `closed`: the runtime is stopping; `retry-later`: it could not be recorded
 * (the store is failing). In both cases the update was not taken and must come again: it is not acknowledged.
 */
export type DispatchOutcome = 'dispatched' | 'answered' | 'duplicate' | 'ignored' | 'invalid' | 'closed' | 'retry-later';

/** What dispatching needs. */
export type DispatchOptions = {
  /** The channel's name, as the core hands it over. */
  readonly channel: string;
  readonly lists: AccessLists;
  readonly sessionPerUser: boolean;
  /** This bot's commands, which count as addressed to it in a group even without @name. */
  readonly ownCommands?: readonly string[];
  readonly bot: () => Promise<BotIdentity | undefined>;
  readonly emit: () => Emit | undefined;
  readonly dedupe: Dedupe;
  readonly strangers: StrangerNotices;
  readonly sender: TelegramSender;
  readonly transport: TelegramTransport;
  readonly text: TelegramMessages;
  readonly logger: Logger;
  readonly rememberQuestionPress: (acknowledgementId: string, press: PressedQuestion) => void;
  readonly now?: () => Date;
  /** How long the parts of an album are collected into one message; default 1 s. */
  readonly albumWindowMs?: number;
};

/** Turns one raw update (from polling or the webhook) into at most one inbound event, once. */
export function createUpdateDispatcher(options: DispatchOptions): (raw: unknown) => Promise<DispatchOutcome> {
  const now = options.now ?? (() => new Date());
  const { sender, text, logger } = options;
  const albums = createAlbumCollector({
    windowMs: options.albumWindowMs ?? 1000,
    emit: async (event) => options.emit()?.(event) ?? { accepted: false, reason: 'closed' },
    // The parts were acknowledged when collected: an album not taken is said in the chat, since Telegram will not send it again.
    onEmitted: async (album, result) => {
      if (result.accepted || result.reason === 'closed') return;
      logger.warn({ chatId: album.chatId, reason: result.reason }, 'telegram album not taken');
      await sender.send({ channel: options.channel, chatId: album.chatId, threadId: album.threadId }, escapeHtml(result.reason === 'busy' ? text.busy : text.storeUnavailable), { replyTo: album.messageId });
    },
  });

  const answerPress = async (callbackQueryId: string, message: string) => {
    await options.transport.call('answerCallbackQuery', { callback_query_id: callbackQueryId, text: message, show_alert: true }, { policy: 'idempotent' });
  };

  /**
   * An update the store could not record. A message is left unacknowledged, so Telegram delivers it again and it
   * is answered once the store is back. A press is answered now with "not saved, press again": the person is
   * looking at the button, and a decision taken silently minutes later would surprise them.
   */
  const refuseUnrecorded = async (event: { readonly type: string; readonly acknowledgementId?: string }): Promise<DispatchOutcome> => {
    if (event.type !== 'action-clicked' || event.acknowledgementId === undefined) return 'retry-later';
    await answerPress(event.acknowledgementId, text.decisionNotSaved);
    return 'answered';
  };

  return async (raw) => {
    const parsed = telegramUpdateSchema.safeParse(raw);
    if (!parsed.success) {
      logger.debug({ issues: parsed.error.issues.slice(0, 3) }, 'telegram update skipped: not a shape the channel reads');
      return 'invalid';
    }
    const update = parsed.data;
    const emit = options.emit();
    if (!emit) return 'closed';
    const translation = updateToEvent(update, { channel: options.channel, bot: await options.bot(), sessionPerUser: options.sessionPerUser, now: now(), ownCommands: options.ownCommands });
    switch (translation.kind) {
      case 'ignored':
        return 'ignored';
      case 'unknown-button':
        await answerPress(translation.callbackQueryId, text.telegramUnknownButton);
        return 'answered';
      case 'unsupported': {
        const access = decideAccess(translation.source, 'message', options.lists);
        if (access.kind !== 'allow') return 'ignored';
        await sender.send({ channel: options.channel, chatId: translation.source.chatId, threadId: translation.threadId }, escapeHtml(text.unsupportedMedia), { replyTo: translation.messageId });
        return 'answered';
      }
      case 'message':
      case 'action': {
        const { source, event } = translation;
        const access = decideAccess(source, translation.kind === 'action' ? 'press' : 'message', options.lists);
        if (access.kind === 'refuse-press' && event.type === 'action-clicked') {
          logger.info({ senderId: source.senderId }, 'button press by someone not allowed; refused');
          await answerPress(event.acknowledgementId ?? '', event.action === 'approval' ? text.onlyApprovers : text.notAllowed);
          return 'answered';
        }
        if (access.kind === 'stranger-notice') {
          // A store that refuses writes costs the stranger their notice, never the loop its progress.
          const notify = await options.strangers.shouldNotify(source.senderId).catch((error: unknown) => {
            logger.warn({ err: error, senderId: source.senderId }, 'stranger notice skipped: the store is failing');
            return false;
          });
          if (notify) {
            logger.info({ senderId: source.senderId }, 'message from an unknown sender; told them their id (TELEGRAM_ALLOW_FROM is empty)');
            await sender.send({ channel: options.channel, chatId: source.chatId }, escapeHtml(text.strangerNotice(source.senderId)));
          }
          return 'answered';
        }
        if (access.kind === 'ignore') {
          logger.debug({ senderId: source.senderId, chatId: source.chatId, reason: access.reason }, 'telegram update ignored');
          return 'ignored';
        }
        // Claimed only now, for senders who get through: strangers and ignored chats leave no row behind.
        let claimed: boolean;
        try {
          claimed = await options.dedupe.claim(update.update_id);
        } catch (error) {
          // The store refuses writes: this update cannot be taken now, and must not be acknowledged as if it had been.
          logger.warn({ err: error, updateId: update.update_id }, 'telegram update could not be recorded (store failing)');
          return refuseUnrecorded(event);
        }
        if (!claimed) {
          logger.debug({ updateId: update.update_id }, 'telegram update already dispatched; skipped');
          return 'duplicate';
        }
        if (event.type === 'action-clicked' && event.action === 'question' && event.acknowledgementId && event.cardMessageId) {
          options.rememberQuestionPress(event.acknowledgementId, { chatId: event.chatId, messageId: Number(event.cardMessageId), questionId: event.actionId });
        }
        if (translation.kind === 'message' && translation.mediaGroupId !== undefined) {
          albums.add(`${source.chatId}:${translation.mediaGroupId}`, translation.event);
          return 'dispatched';
        }
        const result = await emit(event);
        if (result.accepted) {
          // Until confirmed, a redelivery to another process (after this one died) takes the claim over. Not awaited: the
          // event is in the journal already, and the confirmation goes beside the batch's offset and the next poll
          // instead of holding them up (a crash before it lands is the case the unconfirmed claim already covers).
          void options.dedupe.confirm(update.update_id).catch((error: unknown) => logger.warn({ err: error, updateId: update.update_id }, 'dedupe claim not confirmed'));
          return 'dispatched';
        }
        if (result.reason === 'closed' || result.reason === 'unavailable') {
          await options.dedupe.release(update.update_id).catch((error: unknown) => logger.warn({ err: error, updateId: update.update_id }, 'dedupe claim not released'));
          return result.reason === 'closed' ? 'closed' : refuseUnrecorded(event);
        }
        if (event.type === 'action-clicked' && event.acknowledgementId) await answerPress(event.acknowledgementId, text.busy);
        else await sender.send({ channel: options.channel, chatId: event.chatId, threadId: event.threadId }, escapeHtml(text.busy), { replyTo: event.messageId });
        return 'answered';
      }
      default:
        return assertNever(translation, 'telegram update translation');
    }
  };
}
