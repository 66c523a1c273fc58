import type { ChannelDoctor } from '../../src/doctor/channel-doctor.js';
import { type DoctorLine, doctorLine } from '../../src/doctor/doctor-line.js';
import { type QqConfig, qqConfig } from './qq-config.js';
import { hostOf } from '../../src/logging/host-of.js';
import { describeQqSettings, qqCallbackPath, qqSettingsProblem, tokenRootOf } from './qq-settings.js';

/** QQ's doctor lines: on with an AppID and an AppSecret; then whether QQ issues a token for them, and who can reach the bot. */
export const qqDoctor: ChannelDoctor = {
  isConfigured: (config) => {
    const settings = qqConfig.read(config);
    return settings.appId !== undefined && settings.appSecret !== undefined;
  },
  check: ({ config, channelName, timeoutMs }) => checkQq(qqConfig.read(config), { subject: channelName, timeoutMs }),
};

/** How the checks run: the subject of the lines (the channel's name), the time a token request gets, a fetch for tests. */
export type QqCheckOptions = { readonly subject: string; readonly timeoutMs: number; readonly fetch?: typeof fetch };

/** The QQ lines: off without credentials, else whether the token endpoint takes them, plus who can reach the bot. */
export async function checkQq(settings: QqConfig, options: QqCheckOptions): Promise<DoctorLine[]> {
  const { subject } = options;
  const problem = qqSettingsProblem(settings);
  if (problem) return [problem.unset ? doctorLine('off', subject, `off: ${problem.reason}`) : doctorLine('fail', subject, problem.reason)];
  const tokenRoot = tokenRootOf(settings);
  const { createAccessTokenClient } = await import('./access-token-client.js');
  const tokens = createAccessTokenClient({
    appId: settings.appId ?? '',
    clientSecret: settings.appSecret ?? '',
    tokenRoot,
    timeoutMs: options.timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const token = await tokens.get();
  const lines: DoctorLine[] = [];
  if (token.ok) lines.push(doctorLine('ok', subject, `credentials set; ${hostOf(tokenRoot)} issued a token (${describeQqSettings(settings)})`));
  else if (token.code === 'credentials-refused') lines.push(doctorLine('fail', subject, `credentials set, but ${hostOf(tokenRoot)} refused them: check QQ_APP_ID and QQ_APP_SECRET on q.qq.com`));
  // The message may name the host but never the secret: the secret travels in the body only.
  else lines.push(doctorLine('fail', subject, `credentials set, but the token endpoint could not be used: ${token.message}`));
  if (settings.allowFrom.length === 0 && settings.groups.length === 0) lines.push(doctorLine('warn', subject, 'QQ_ALLOW_FROM and QQ_GROUPS are empty: nobody reaches the model (a stranger is told their openid)'));
  if (settings.mode === 'webhook') lines.push(doctorLine('ok', subject, `webhook mode: set the callback URL on q.qq.com to https://<your host>${qqCallbackPath} (the HTTP gateway)`));
  return lines;
}
