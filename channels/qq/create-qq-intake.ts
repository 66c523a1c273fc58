import type { Dedupe } from '../../src/dedupe/create-dedupe.js';
import type { Emit } from '../../src/events/channel.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { PassiveReplies } from './create-passive-replies.js';
import { parseMessageEvent } from './message-event-schema.js';
import { toQqChatId } from './qq-chat-id.js';
import type { QqMessages } from './qq-strings.js';
import type { QqConfig } from './qq-config.js';
import type { ReplyAnchors } from './reply-anchors.js';
import { toMessageReceived } from './to-event.js';
import { toInboundMessage } from './to-inbound-message.js';

/** An event the platform dispatched (webhook op 0 or a websocket dispatch). */
export type QqDispatch = { readonly type?: string; readonly data: unknown; readonly id?: string };

/** What became of a dispatch: handed to the runtime, left aside, or not recorded (the platform should send it again). */
export type IntakeResult = 'accepted' | 'ignored' | 'unavailable';

/** What the intake needs. */
export type QqIntakeOptions = {
  readonly channelName: string;
  readonly settings: Pick<QqConfig, 'allowFrom' | 'approvers' | 'groups'>;
  readonly replies: PassiveReplies;
  readonly anchors: ReplyAnchors;
  readonly dedupe: Dedupe;
  readonly messages: QqMessages;
  readonly logger: Logger;
  readonly now: () => Date;
};

/** Turns QQ message events into runtime events: access, one run per message id (across restarts), then emit. */
export function createQqIntake(options: QqIntakeOptions): { handle(dispatch: QqDispatch, emit: Emit): Promise<IntakeResult> } {
  const { settings, logger, replies, anchors } = options;
  // Each stranger and unlisted group is told its openid once per process, not on every message.
  const told = new Set<string>();
  const tellOnce = async (chatId: string, key: string, text: string) => {
    if (told.has(key) || told.size > 10_000) return;
    told.add(key);
    await replies.send(chatId, [text], { holdWhenRefused: false });
  };

  return {
    async handle(dispatch, emit) {
      const parsed = parseMessageEvent(dispatch.type, dispatch.data);
      if (!parsed.ok) {
        if (!parsed.ignored) logger.warn({ reason: parsed.reason }, 'QQ: malformed message event ignored');
        return 'ignored';
      }
      const receivedAt = options.now();
      const message = toInboundMessage(parsed.event, { receivedAt, ...(dispatch.id === undefined ? {} : { eventId: dispatch.id }) });
      const chatId = toQqChatId(message.groupOpenid === undefined ? { scene: 'c2c', openid: message.authorOpenid } : { scene: 'group', groupOpenid: message.groupOpenid });
      anchors.remember(chatId, { messageId: message.messageId, sentAt: message.sentAt, scene: message.scene });
      if (message.groupOpenid === undefined) {
        const allowed = settings.allowFrom.includes(message.authorOpenid) || settings.approvers.includes(message.authorOpenid);
        if (!allowed) {
          logger.info({ openid: message.authorOpenid }, 'QQ: a person not in QQ_ALLOW_FROM wrote; told their openid');
          await tellOnce(chatId, `user:${message.authorOpenid}`, options.messages.qqStranger(message.authorOpenid));
          return 'ignored';
        }
      } else if (!settings.groups.includes(message.groupOpenid)) {
        logger.info({ groupOpenid: message.groupOpenid }, 'QQ: an @-message from a group not in QQ_GROUPS; told its openid');
        await tellOnce(chatId, `group:${message.groupOpenid}`, options.messages.qqGroupNotListed(message.groupOpenid));
        return 'ignored';
      }
      if (message.text === '' && message.attachments.length === 0) return 'ignored';
      if (!(await options.dedupe.claim(message.messageId))) {
        logger.debug({ messageId: message.messageId }, 'QQ: message seen before; ignored');
        return 'ignored';
      }
      await replies.flushHeld(chatId);
      const result = await emit(toMessageReceived(message, { channel: options.channelName, now: receivedAt, sessionPerUser: false }));
      if (result.accepted) {
        await options.dedupe.confirm(message.messageId).catch((error: unknown) => logger.warn({ err: error, messageId: message.messageId }, 'QQ: dedupe claim not confirmed'));
        return 'accepted';
      }
      await options.dedupe.release(message.messageId).catch(() => undefined);
      if (result.reason === 'unavailable') return 'unavailable';
      // A closed bus means the app is stopping: nobody to tell.
      if (result.reason === 'busy') await replies.send(chatId, [options.messages.busy], { replyTo: message.messageId, holdWhenRefused: false });
      return 'ignored';
    },
  };
}
