import type { Messages } from '../../src/i18n/messages.js';
import type { ChannelStrings } from '../../src/i18n/with-channel-strings.js';

/** Telegram's own user-facing strings. */
export type TelegramStrings = {
  /** A stranger's private message: the bot is private, and here is the id to give the owner. */
  readonly strangerNotice: (userId: string) => string;
  /** A button whose data is unknown or from an old layout. */
  readonly telegramUnknownButton: string;
  /** Descriptions of the commands registered with setMyCommands. */
  readonly telegramCommands: Readonly<Record<'start' | 'help' | 'new' | 'approvals' | 'approve' | 'deny' | 'cancel' | 'usage' | 'budget', string>>;
};

/** The core catalogue and Telegram's strings, in the channel's locale. */
export type TelegramMessages = Messages & TelegramStrings;

/** Telegram's strings in English and Chinese. */
export const telegramStrings: ChannelStrings<TelegramStrings> = {
  en: {
    strangerNotice: (userId) => `This bot is private. Your user id is ${userId}: ask the owner to add it to TELEGRAM_ALLOW_FROM.`,
    telegramUnknownButton: 'This button has expired or is not known.',
    telegramCommands: {
      start: 'Greeting and what I can do',
      help: 'List the commands',
      new: 'Start a fresh conversation',
      approvals: 'Approvals waiting for you, and your grants',
      approve: 'Approve a pending action: /approve <id>',
      deny: 'Refuse a pending action: /deny <id>',
      cancel: 'Cancel the question or approval waiting here',
      usage: 'Tokens and cost: today and this month',
      budget: 'Budgets of this chat; approvers can raise one',
    },
  },
  'zh-CN': {
    strangerNotice: (userId) => `这是私人机器人。你的用户编号是 ${userId}，请联系管理员加入白名单。`,
    telegramUnknownButton: '此按钮已过期或无法识别。',
    telegramCommands: {
      start: '问候与功能介绍',
      help: '列出命令',
      new: '开始新的对话',
      approvals: '等待你审批的请求和已有授权',
      approve: '批准：/approve <id>',
      deny: '拒绝：/deny <id>',
      cancel: '取消本会话中等待的问题或审批',
      usage: '令牌与费用：今天和本月',
      budget: '本聊天的预算；审批人可提高',
    },
  },
};
