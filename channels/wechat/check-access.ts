import type { WechatMessageData } from './wechat-message-data.js';

/** Who may reach the model from WeChat. */
export type WechatAccessPolicy = {
  /** Contact ids or aliases (remarks the owner set) allowed in private chats. */
  readonly allowFrom: readonly string[];
  /** Room ids the bot answers in, when @mentioned. */
  readonly rooms: readonly string[];
};

/** Whether a message may reach the model, and if not, why (for a debug line). */
export type AccessDecision = { readonly allowed: true } | { readonly allowed: false; readonly reason: 'own-message' | 'stranger' | 'room-not-allowed' | 'not-mentioned' };

/** Decides access for one message: own messages never; private chats by id or alias; rooms by id and only when mentioned. Pure. */
export function checkAccess(data: WechatMessageData, policy: WechatAccessPolicy): AccessDecision {
  if (data.isSelf) return { allowed: false, reason: 'own-message' };
  if (data.room) {
    if (!policy.rooms.includes(data.room.id)) return { allowed: false, reason: 'room-not-allowed' };
    return data.mentionsBot ? { allowed: true } : { allowed: false, reason: 'not-mentioned' };
  }
  const { id, alias } = data.talker;
  // The alias is the owner's remark for the contact; the contact's own nickname is never trusted.
  if (policy.allowFrom.includes(id) || (alias !== undefined && alias !== '' && policy.allowFrom.includes(alias))) return { allowed: true };
  return { allowed: false, reason: 'stranger' };
}
