import type { WechatMessageData } from './wechat-message-data.js';

/** Who may reach the model from WeChat. */
export type WechatAccessPolicy = {
  /** Contact ids or aliases (remarks the owner set) allowed in private chats. */
  readonly allowFrom: readonly string[];
  /** Room ids the bot answers in, when @mentioned. */
  readonly rooms: readonly string[];
  /** `allow-list` (default): in rooms too, only members in allowFrom reach the model. `open`: any member of a listed room. */
  readonly roomPolicy?: 'allow-list' | 'open';
};

/** Whether a message may reach the model, and if not, why (for a debug line). */
export type AccessDecision = { readonly allowed: true } | { readonly allowed: false; readonly reason: 'own-message' | 'stranger' | 'room-not-allowed' | 'not-mentioned' };

/**
 * Decides access for one message: own messages never; private chats by id or alias; rooms by id,
 * only when mentioned, and (unless the room policy is `open`) only from members on the allow list,
 * as in Telegram groups. Pure.
 */
export function checkAccess(data: WechatMessageData, policy: WechatAccessPolicy): AccessDecision {
  if (data.isSelf) return { allowed: false, reason: 'own-message' };
  if (data.room) {
    if (!policy.rooms.includes(data.room.id)) return { allowed: false, reason: 'room-not-allowed' };
    if (!data.mentionsBot) return { allowed: false, reason: 'not-mentioned' };
    if (policy.roomPolicy === 'open') return { allowed: true };
    return isAllowed(data.talker, policy.allowFrom) ? { allowed: true } : { allowed: false, reason: 'stranger' };
  }
  return isAllowed(data.talker, policy.allowFrom) ? { allowed: true } : { allowed: false, reason: 'stranger' };
}

function isAllowed(talker: WechatMessageData['talker'], allowFrom: readonly string[]): boolean {
  const { id, alias } = talker;
  // The alias is the owner's remark for the contact; the contact's own nickname is never trusted.
  return allowFrom.includes(id) || (alias !== undefined && alias !== '' && allowFrom.includes(alias));
}
