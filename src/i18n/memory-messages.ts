/** The strings of `/memory` and `/forget`. */
export type MemoryMessages = {
  /** Memory is off in this deployment (`memory.enabled: false`). */
  readonly off: string;
  readonly empty: string;
  /** The facts the bot holds here, one numbered line each with its source. */
  readonly list: (lines: readonly string[]) => string;
  /** One fact as listed: its statement, who said it, when. */
  readonly line: (input: { readonly number: number; readonly statement: string; readonly authorName: string; readonly date: string }) => string;
  readonly usageForget: string;
  readonly forgotten: (count: number) => string;
  readonly nothingToForget: (words: string) => string;
};

/** English strings of `/memory` and `/forget`. */
export const englishMemoryMessages: MemoryMessages = {
  off: 'Memory is off here: I keep only the recent conversation.',
  empty: 'I hold no facts about you or this chat here.',
  list: (lines) => ['What I remember here:', ...lines, '', 'Send /forget <words> to make me forget the facts that contain them.'].join('\n'),
  line: ({ number, statement, authorName, date }) => `${number}. ${statement} (from ${authorName}, ${date})`,
  usageForget: 'Usage: /forget <words>, e.g. /forget home city',
  forgotten: (count) => (count === 1 ? 'Forgotten: 1 fact.' : `Forgotten: ${count} facts.`),
  nothingToForget: (words) => `I hold no fact here that contains "${words}".`,
};

/** Chinese strings of `/memory` and `/forget`. */
export const chineseMemoryMessages: MemoryMessages = {
  off: '这里没有开启记忆：我只保留最近的对话。',
  empty: '在这里我没有记住关于你或这个聊天的任何事实。',
  list: (lines) => ['我在这里记住的内容：', ...lines, '', '发送 /forget <关键词> 让我忘记包含这些词的事实。'].join('\n'),
  line: ({ number, statement, authorName, date }) => `${number}. ${statement}（来自 ${authorName}，${date}）`,
  usageForget: '用法：/forget <关键词>，例如 /forget 家乡',
  forgotten: (count) => `已忘记 ${count} 条事实。`,
  nothingToForget: (words) => `这里没有包含“${words}”的事实。`,
};
