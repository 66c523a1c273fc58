/** A person's message the emulator delivered to the bot: what a passive reply may name. */
export type DeliveredMessage = {
  readonly id: string;
  readonly scene: 'c2c' | 'group';
  /** The user openid (C2C) or group openid the message was written in. */
  readonly chat: string;
  readonly receivedAt: number;
  replies: number;
  readonly seqs: Set<number>;
};

/** A refusal as QQ answers it: HTTP status, code and message. */
export type PlatformRefusal = { readonly status: number; readonly code: number; readonly message: string };

/** send.md: passive replies within 60 min (C2C) or 5 min (group), at most 5 per message; proactive sends ended 2025-04-21. */
export const emulatedReplyRules = { c2c: { windowMs: 60 * 60_000, maxReplies: 5 }, group: { windowMs: 5 * 60_000, maxReplies: 5 } } as const;

/** Decides whether QQ takes a message sent to `chat`, and records the reply when it does. */
export function admitMessage(input: {
  readonly delivered: ReadonlyMap<string, DeliveredMessage>;
  readonly scene: 'c2c' | 'group';
  readonly chat: string;
  readonly msgId: unknown;
  readonly msgSeq: unknown;
  readonly eventId: unknown;
  readonly passiveEventIds: ReadonlyMap<string, { readonly chat: string; readonly at: number }>;
  readonly now: number;
}): PlatformRefusal | undefined {
  if (typeof input.msgId === 'string' && input.msgId !== '') {
    const original = input.delivered.get(input.msgId);
    // Codes QQ answers in the wild (40034024, 40054005) where the docs list none.
    if (!original || original.chat !== input.chat || original.scene !== input.scene) return { status: 400, code: 40034024, message: '请求参数msg_id无效或越权' };
    if (input.now - original.receivedAt > emulatedReplyRules[input.scene].windowMs) return { status: 400, code: 304027, message: 'MSG_EXPIRE 回复的消息过期' };
    const seq = input.msgSeq === undefined ? 1 : input.msgSeq;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 1) return { status: 400, code: 12002, message: 'RequestInvalid msg_seq' };
    if (original.seqs.has(seq)) return { status: 400, code: 40054005, message: '消息被去重，请检查请求msgseq' };
    if (original.replies >= emulatedReplyRules[input.scene].maxReplies) return { status: 400, code: 22009, message: 'msg limit exceed' };
    original.replies += 1;
    original.seqs.add(seq);
    return undefined;
  }
  if (typeof input.eventId === 'string' && input.eventId !== '') {
    const event = input.passiveEventIds.get(input.eventId);
    if (!event || event.chat !== input.chat || input.now - event.at > 5 * 60_000) return { status: 400, code: 40034024, message: '请求参数event_id无效或越权' };
    return undefined;
  }
  return { status: 400, code: 40034102, message: '主动消息失败, 无权限' };
}
