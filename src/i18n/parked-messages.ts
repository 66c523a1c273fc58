/** One parked turn as `/parked` lists it. */
export type ParkedLine = {
  readonly id: string;
  /** When it was parked, already formatted. */
  readonly parkedAt: string;
  /** Where it came from: `telegram:42`. */
  readonly chat: string;
  /** Who sent it (a display name, or a job). */
  readonly from: string;
  readonly attempts: number;
  /** The start of its text, or what it was (a button press, a scheduled job). */
  readonly preview: string;
};

/** Every user-facing string about parked turns (part of Messages as `parked`). */
export type ParkedMessages = {
  /** Said once in the chat of a message whose turn was interrupted too often to run again. */
  readonly setAside: string;
  readonly listHeader: (count: number) => string;
  readonly line: (turn: ParkedLine) => string;
  readonly none: string;
  readonly details: (turn: ParkedLine, reason: string) => string;
  readonly retried: (id: string) => string;
  readonly dropped: (id: string) => string;
  readonly notFound: (id: string) => string;
  readonly onlyApprovers: string;
  readonly usage: string;
};

/** The English parked-turn messages. */
export const englishParkedMessages: ParkedMessages = {
  setAside: 'I could not process your last message; it has been set aside.',
  listHeader: (count) => `Parked turns (${count}): messages whose processing was interrupted too often to run again.`,
  line: (turn) => `• ${turn.id} — ${turn.chat}, ${turn.from}, parked ${turn.parkedAt} after ${turn.attempts} start(s): ${turn.preview} → /parked retry ${turn.id} · /parked drop ${turn.id}`,
  none: 'No turns are parked.',
  details: (turn, reason) => [`Parked turn ${turn.id}`, `Chat: ${turn.chat}`, `From: ${turn.from}`, `Parked: ${turn.parkedAt}, after ${turn.attempts} start(s)`, `Why: ${reason}`, `Message: ${turn.preview}`].join('\n'),
  retried: (id) => `Parked turn ${id} is queued to run again. If it is interrupted twice more, it is parked again.`,
  dropped: (id) => `Parked turn ${id} was dropped.`,
  notFound: (id) => `There is no parked turn ${id}. /parked lists them.`,
  onlyApprovers: 'Only approvers can see and handle parked turns.',
  usage: 'Usage: /parked (list) · /parked show <id> · /parked retry <id> · /parked drop <id>',
};

/** The Chinese parked-turn messages (ids, chats and message text are shown as given). */
export const chineseParkedMessages: ParkedMessages = {
  setAside: '我无法处理你的上一条消息，已将其搁置。',
  listHeader: (count) => `搁置的消息（${count} 条）：处理时多次中断、不再自动重试的消息。`,
  line: (turn) => `• ${turn.id} — ${turn.chat}，${turn.from}，${turn.parkedAt} 搁置（已开始 ${turn.attempts} 次）：${turn.preview} → /parked retry ${turn.id} · /parked drop ${turn.id}`,
  none: '没有搁置的消息。',
  details: (turn, reason) => [`搁置的消息 ${turn.id}`, `聊天：${turn.chat}`, `发送者：${turn.from}`, `搁置时间：${turn.parkedAt}（已开始 ${turn.attempts} 次）`, `原因：${reason}`, `内容：${turn.preview}`].join('\n'),
  retried: (id) => `搁置的消息 ${id} 已重新排队。如果再中断两次，会再次被搁置。`,
  dropped: (id) => `搁置的消息 ${id} 已删除。`,
  notFound: (id) => `没有编号为 ${id} 的搁置消息。/parked 可列出全部。`,
  onlyApprovers: '只有审批人可以查看和处理搁置的消息。',
  usage: '用法：/parked（列表） · /parked show <编号> · /parked retry <编号> · /parked drop <编号>',
};
