import type { Messages } from '../../src/i18n/messages.js';
import type { ChannelStrings } from '../../src/i18n/with-channel-strings.js';

/** WeChat's own user-facing strings. */
export type WechatStrings = {
  /** One labelled line of a text card. */
  readonly wechatField: (label: string, value: string) => string;
  /** How to answer a card that does not offer "always" (a dangerous action). */
  readonly wechatNoAlwaysHint: (id: string) => string;
  /** The follow-up line carrying an approval's outcome, since messages cannot be edited. */
  readonly wechatOutcomeLine: (id: string, outcome: string) => string;
  /** In a group the bot only hears messages that @mention it, numbered replies included. */
  readonly wechatMentionToReply: string;
};

/** The core catalogue and WeChat's strings, in the channel's locale. */
export type WechatMessages = Messages & WechatStrings;

/** WeChat's strings in English and Chinese. */
export const wechatStrings: ChannelStrings<WechatStrings> = {
  en: {
    wechatField: (label, value) => `${label}: ${value}`,
    wechatNoAlwaysHint: (id) => `Reply 1 approve once · 3 deny (id ${id}). "Always allow" is not offered for this action.`,
    wechatOutcomeLine: (id, outcome) => `Approval ${id}: ${outcome}`,
    wechatMentionToReply: 'In this group, @mention me with your reply.',
  },
  'zh-CN': {
    wechatField: (label, value) => `${label}：${value}`,
    wechatNoAlwaysHint: (id) => `回复 1 批准一次 · 3 拒绝（编号 ${id}）。此操作不提供“总是允许”。`,
    wechatOutcomeLine: (id, outcome) => `审批 ${id}：${outcome}`,
    wechatMentionToReply: '在群聊中请 @我 并回复。',
  },
};
