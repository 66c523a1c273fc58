import type { QqTarget } from './create-qq-sender.js';

/** The channel's chat id of a target: `c2c:<user_openid>` or `group:<group_openid>`, so a reply knows its endpoint. */
export function toQqChatId(target: QqTarget): string {
  return target.scene === 'c2c' ? `c2c:${target.openid}` : `group:${target.groupOpenid}`;
}

/** The target a chat id names, or undefined for one the channel did not make. Pure. */
export function parseQqChatId(chatId: string): QqTarget | undefined {
  const match = /^(c2c|group):([A-Za-z0-9_-]{1,128})$/.exec(chatId);
  if (!match?.[2]) return undefined;
  return match[1] === 'c2c' ? { scene: 'c2c', openid: match[2] } : { scene: 'group', groupOpenid: match[2] };
}
