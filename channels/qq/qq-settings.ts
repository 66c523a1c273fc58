import { hostOf } from '../../src/logging/host-of.js';
import { qqTokenRoot } from './qq-endpoints.js';
import type { QqConfig } from './qq-config.js';

/** The HTTP gateway path QQ posts callbacks to in webhook mode. */
export const qqCallbackPath = '/qq/callback';

/** Where the token endpoint is: the setting, else bots.qq.com for QQ's hosts, else the API root (an emulator). Pure. */
export function tokenRootOf(settings: QqConfig): string {
  if (settings.tokenRoot) return settings.tokenRoot;
  return hostOf(settings.apiRoot).endsWith('sgroup.qq.com') ? qqTokenRoot : settings.apiRoot;
}

/** Why the channel cannot start, before any request: `unset` when it is simply off. Pure. */
export function qqSettingsProblem(settings: QqConfig): { readonly unset: boolean; readonly reason: string } | undefined {
  if (!settings.appId && !settings.appSecret) return { unset: true, reason: 'QQ_APP_ID and QQ_APP_SECRET are not set' };
  if (!settings.appId) return { unset: false, reason: 'QQ_APP_SECRET is set but QQ_APP_ID is not' };
  if (!settings.appSecret) return { unset: false, reason: 'QQ_APP_ID is set but QQ_APP_SECRET is not' };
  if (!/^\d{1,20}$/.test(settings.appId)) return { unset: false, reason: 'QQ_APP_ID must be the numeric AppID from q.qq.com' };
  return undefined;
}

/** How events arrive and who may talk: `webhook at /qq/callback, 1 allowed user, 1 group`. Pure. */
export function describeQqSettings(settings: QqConfig): string {
  const via = settings.mode === 'webhook' ? `webhook at ${qqCallbackPath}` : `websocket via ${hostOf(settings.apiRoot)}`;
  const users = settings.allowFrom.length === 0 ? 'no allowed users yet (strangers are told their openid)' : `${settings.allowFrom.length} allowed user${settings.allowFrom.length === 1 ? '' : 's'}`;
  const groups = settings.groups.length === 0 ? '' : `, ${settings.groups.length} group${settings.groups.length === 1 ? '' : 's'}`;
  return `${via}, ${users}${groups}`;
}
