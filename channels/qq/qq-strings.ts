import type { Messages } from '../../src/i18n/messages.js';
import type { ChannelStrings } from '../../src/i18n/with-channel-strings.js';
import type { QqSendFailureReason } from './classify-send-failure.js';
import type { QqScene } from './to-inbound-message.js';

/** QQ's own user-facing strings. */
export type QqStrings = {
  /** Shown with the next reply the person gets: an earlier answer did not reach them, and why. */
  readonly qqUndelivered: (reason: QqSendFailureReason, scene: QqScene) => string;
  /** Said when a scheduled task is created on QQ: what the platform lets the bot send on its own. */
  readonly qqScheduleLimits: (scene: QqScene) => string;
  /** A card whose action has no "always allow": how to answer it by number. */
  readonly qqNoAlwaysHint: (id: string) => string;
  /** The follow-up line carrying an approval's outcome (sent messages cannot be edited). */
  readonly qqOutcomeLine: (id: string, outcome: string) => string;
  /** A label and its value on a card. */
  readonly qqField: (label: string, value: string) => string;
  /** Told once to a person not in QQ_ALLOW_FROM: their openid, to be added. */
  readonly qqStranger: (openid: string) => string;
  /** Told once in a group not in QQ_GROUPS: its openid, to be added. */
  readonly qqGroupNotListed: (groupOpenid: string) => string;
  /** QQ text replies only: a file the agent meant to send. */
  readonly qqFileNotSent: (fileName: string) => string;
};

const windowText = { en: { c2c: '60 minutes', group: '5 minutes' }, 'zh-CN': { c2c: '60 分钟', group: '5 分钟' } } as const;

/** The core catalogue and QQ's strings, in the channel's locale. */
export type QqMessages = Messages & QqStrings;

/** QQ's strings in English and Chinese. */
export const qqStrings: ChannelStrings<QqStrings> = {
  en: {
  qqUndelivered: (reason, scene) => {
    if (reason === 'reply-window-closed') return `My earlier answer did not reach you: QQ accepts a reply only within ${windowText.en[scene]} of your message.`;
    if (reason === 'reply-limit-reached') return 'Part of my earlier answer did not reach you: QQ allows 5 replies to one message.';
    if (reason === 'proactive-refused') return 'A message I tried to send on my own did not reach you: QQ only delivers replies to your messages.';
    return 'My earlier answer did not reach you: QQ refused it.';
  },
  qqScheduleLimits: (scene) =>
    `Note: QQ no longer delivers messages a bot sends on its own. The task will run, but its result can only reach you as a reply to a message you sent in the ${windowText.en[scene]} before; otherwise it waits until you next write.`,
  qqNoAlwaysHint: (id) => `Reply 1 approve once · 3 deny (id ${id}). "Always allow" is not offered for this action.`,
  qqOutcomeLine: (id, outcome) => `Approval ${id}: ${outcome}`,
  qqField: (label, value) => `${label}: ${value}`,
  qqStranger: (openid) => `You are not on this bot's allow list yet. Your openid is ${openid}: the owner adds it to QQ_ALLOW_FROM.`,
  qqGroupNotListed: (groupOpenid) => `This group is not on the bot's list yet. Its openid is ${groupOpenid}: the owner adds it to QQ_GROUPS.`,
  qqFileNotSent: (fileName) => `(The file ${fileName} was not sent: the QQ channel sends text only.)`,
  },
  'zh-CN': {
  qqUndelivered: (reason, scene) => {
    if (reason === 'reply-window-closed') return `我之前的回复没有送达：QQ 只允许在你发消息后 ${windowText['zh-CN'][scene]}内回复。`;
    if (reason === 'reply-limit-reached') return '我之前的回复有一部分没有送达：QQ 对每条消息最多允许回复 5 次。';
    if (reason === 'proactive-refused') return '我主动发送的一条消息没有送达：QQ 只投递对你消息的回复。';
    return '我之前的回复没有送达：QQ 拒绝了它。';
  },
  qqScheduleLimits: (scene) =>
    `注意：QQ 已不再投递机器人主动发送的消息。任务会照常运行，但结果只能作为回复送达——回复的是你在此前 ${windowText['zh-CN'][scene]}内发来的消息；否则会等到你下次发消息时再送达。`,
  qqNoAlwaysHint: (id) => `回复 1 批准一次 · 3 拒绝（编号 ${id}）。此操作不提供“总是允许”。`,
  qqOutcomeLine: (id, outcome) => `审批 ${id}：${outcome}`,
  qqField: (label, value) => `${label}：${value}`,
  qqStranger: (openid) => `你还不在这个机器人的允许名单里。你的 openid 是 ${openid}：请机器人的主人把它加入 QQ_ALLOW_FROM。`,
  qqGroupNotListed: (groupOpenid) => `这个群还不在机器人的名单里。群的 openid 是 ${groupOpenid}：请机器人的主人把它加入 QQ_GROUPS。`,
  qqFileNotSent: (fileName) => `（文件 ${fileName} 没有发送：QQ 渠道只发送文字。）`,
  },
};
