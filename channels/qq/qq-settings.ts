import { z } from 'zod';
import { commaList, optionalText } from '../../src/config/comma-list.js';
import { toolSelectionSchema } from '../../src/config/config-schema.js';
import { qqTokenRoot } from './access-token-client.js';
import { qqApiRoot } from './create-qq-sender.js';
import { qqReplyRules } from './reply-rules.js';

/** The `channels.qq` section: a zod fragment the core merges into its config schema once channels bring their own. */
export const qqSettingsSchema = z.strictObject({
  appId: optionalText.describe('AppID of the bot (q.qq.com, development settings); without it the channel is off.'),
  appSecret: optionalText.describe('AppSecret of the bot: fetches access tokens and is the seed of the callback signing key.'),
  mode: z.enum(['webhook', 'websocket']).default('webhook').describe('webhook: QQ posts events to POST /qq/callback on the HTTP gateway. websocket: the bot connects to the QQ gateway.'),
  apiRoot: z.string().url().default(qqApiRoot).describe('OpenAPI root (the sandbox, or an emulator in tests).'),
  tokenRoot: optionalText.describe('Where /app/getAppAccessToken lives; empty: bots.qq.com for QQ\'s own API roots, else the API root (an emulator).'),
  allowFrom: commaList.default([]).describe('User openids (private chats) that reach the model; QQ shows bots openids only.'),
  approvers: commaList.default([]).describe('User openids that may decide approvals; empty: the requester decides.'),
  groups: commaList.default([]).describe('Group openids the bot answers in (when @-mentioned); members there are per-group openids.'),
  limits: z
    .strictObject({
      messageChars: z.coerce.number().int().min(100).max(5000).default(2000).describe('Longest single text message.'),
    })
    .prefault({})
    .describe("QQ's limits the channel keeps to."),
  tools: toolSelectionSchema.partial().optional().describe('Tool selection for this channel.'),
});

/** The validated `channels.qq` section. */
export type QqSettings = z.infer<typeof qqSettingsSchema>;

/** One environment variable the section reads: which key it fills, and its default when unset. */
export type QqEnvironmentVariable = { readonly name: string; readonly key: keyof QqSettings; readonly default: string };

/** The environment variables of `channels.qq`, as data (the core's config loader reads them; this folder never does). */
export const qqEnvironmentVariables: readonly QqEnvironmentVariable[] = [
  { name: 'QQ_APP_ID', key: 'appId', default: '' },
  { name: 'QQ_APP_SECRET', key: 'appSecret', default: '' },
  { name: 'QQ_MODE', key: 'mode', default: 'webhook' },
  { name: 'QQ_API_ROOT', key: 'apiRoot', default: qqApiRoot },
  { name: 'QQ_ALLOW_FROM', key: 'allowFrom', default: '' },
  { name: 'QQ_APPROVERS', key: 'approvers', default: '' },
  { name: 'QQ_GROUPS', key: 'groups', default: '' },
];

/** Keys of the section whose values are secrets, masked in logs. */
export const qqSecretPaths: readonly (keyof QqSettings)[] = ['appSecret'];

/** The HTTP gateway path QQ posts callbacks to in webhook mode. */
export const qqCallbackPath = '/qq/callback';

/** What QQ allows a bot, for the core and the docs: message length, files, and the passive-reply rules. */
export const qqPlatformLimits = {
  messageChars: 2000,
  /** The channel sends text only; files QQ sends are described, not downloaded. */
  mediaBytes: 0,
  /** QQ stopped delivering messages a bot sends on its own (2025-04-21): everything is a reply to a person's message. */
  proactiveSends: 'never',
  replyWindowMs: { c2c: qqReplyRules.c2c.windowMs, group: qqReplyRules.group.windowMs },
  repliesPerMessage: qqReplyRules.c2c.maxReplies,
} as const;

/**
 * Builds the section from environment variables handed in (the map, never `process.env`), as default.yaml
 * would: each variable fills its key, the default when unset. Failures are values.
 */
export function parseQqSettings(environment: Readonly<Record<string, string | undefined>>, overrides: Partial<Record<keyof QqSettings, unknown>> = {}): { readonly ok: true; readonly settings: QqSettings } | { readonly ok: false; readonly error: string } {
  const raw: Record<string, unknown> = {};
  for (const variable of qqEnvironmentVariables) raw[variable.key] = environment[variable.name] ?? variable.default;
  const parsed = qqSettingsSchema.safeParse({ ...raw, ...overrides });
  if (parsed.success) return { ok: true, settings: parsed.data };
  return { ok: false, error: parsed.error.issues.map((issue) => `channels.qq.${issue.path.join('.')}: ${issue.message}`).join('; ') };
}

/** Where the token endpoint is: the setting, else bots.qq.com for QQ's hosts, else the API root (an emulator). Pure. */
export function tokenRootOf(settings: QqSettings): string {
  if (settings.tokenRoot) return settings.tokenRoot;
  return hostOf(settings.apiRoot).endsWith('sgroup.qq.com') ? qqTokenRoot : settings.apiRoot;
}

/** Why the channel cannot start, before any request: `unset` when it is simply off. Pure. */
export function qqSettingsProblem(settings: QqSettings): { readonly unset: boolean; readonly reason: string } | undefined {
  if (!settings.appId && !settings.appSecret) return { unset: true, reason: 'QQ_APP_ID and QQ_APP_SECRET are not set' };
  if (!settings.appId) return { unset: false, reason: 'QQ_APP_SECRET is set but QQ_APP_ID is not' };
  if (!settings.appSecret) return { unset: false, reason: 'QQ_APP_ID is set but QQ_APP_SECRET is not' };
  if (!/^\d{1,20}$/.test(settings.appId)) return { unset: false, reason: 'QQ_APP_ID must be the numeric AppID from q.qq.com' };
  return undefined;
}

/** How events arrive and who may talk: `webhook at /qq/callback, 1 allowed user, 1 group`. Pure. */
export function describeQqSettings(settings: QqSettings): string {
  const via = settings.mode === 'webhook' ? `webhook at ${qqCallbackPath}` : `websocket via ${hostOf(settings.apiRoot)}`;
  const users = settings.allowFrom.length === 0 ? 'no allowed users yet (strangers are told their openid)' : `${settings.allowFrom.length} allowed user${settings.allowFrom.length === 1 ? '' : 's'}`;
  const groups = settings.groups.length === 0 ? '' : `, ${settings.groups.length} group${settings.groups.length === 1 ? '' : 's'}`;
  return `${via}, ${users}${groups}`;
}

/** The host of a URL, or a neutral phrase (never the text itself). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured address';
  }
}
