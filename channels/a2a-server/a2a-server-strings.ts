import type { ChannelStrings } from '../../src/i18n/with-channel-strings.js';

/** The A2A server's own words, in the messages of the tasks it answers. */
export type A2aServerStrings = {
  /** A message with no text part. */
  readonly noText: string;
  /** The turn could not be queued. */
  readonly notQueued: (reason: 'busy' | 'closed' | 'unavailable') => string;
  /** The task waits for a person in the agent's chat: what they were asked. */
  readonly waitingForPerson: (what: string) => string;
  /** A turn that ended without an answer of its own. */
  readonly turnEnded: (status: string) => string;
};

/** The strings in English and Chinese. */
export const a2aServerStrings: ChannelStrings<A2aServerStrings> = {
  en: {
    noText: 'The message has no text part; send the task as text.',
    notQueued: (reason) => (reason === 'unavailable' ? "The task could not be recorded: the agent's storage is not answering. Nothing was run; retry later." : reason === 'busy' ? 'The agent is busy; retry in a moment.' : 'The agent is shutting down; retry later.'),
    waitingForPerson: (what) => `Waiting for a person in the agent's chat: ${what}`,
    turnEnded: (status) => `The task ended without an answer (${status}).`,
  },
  'zh-CN': {
    noText: '消息中没有文本部分；请以文本发送任务。',
    notQueued: (reason) => (reason === 'unavailable' ? '任务无法记录：助手的存储没有响应。未执行任何操作；请稍后重试。' : reason === 'busy' ? '助手正忙；请稍后重试。' : '助手正在关闭；请稍后重试。'),
    waitingForPerson: (what) => `正在等待助手聊天中的人处理：${what}`,
    turnEnded: (status) => `任务结束，但没有答复（${status}）。`,
  },
};
