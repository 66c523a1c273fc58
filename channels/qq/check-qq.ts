import { type DoctorLine, doctorLine } from '../../src/app/doctor/doctor-line.js';
import { createAccessTokenClient } from './access-token-client.js';
import { describeQqSettings, hostOf, type QqSettings, qqSettingsProblem, tokenRootOf } from './qq-settings.js';

/** The doctor's QQ lines: off without credentials, else whether the token endpoint takes them, plus who can reach the bot. */
export async function checkQq(settings: QqSettings, options: { readonly timeoutMs?: number; readonly fetch?: typeof fetch } = {}): Promise<DoctorLine[]> {
  const problem = qqSettingsProblem(settings);
  if (problem) return [problem.unset ? doctorLine('off', 'qq', `off: ${problem.reason}`) : doctorLine('fail', 'qq', problem.reason)];
  const tokenRoot = tokenRootOf(settings);
  const tokens = createAccessTokenClient({
    appId: settings.appId ?? '',
    clientSecret: settings.appSecret ?? '',
    tokenRoot,
    timeoutMs: options.timeoutMs ?? 5000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const token = await tokens.get();
  const lines: DoctorLine[] = [];
  if (token.ok) lines.push(doctorLine('ok', 'qq', `credentials set; ${hostOf(tokenRoot)} issued a token (${describeQqSettings(settings)})`));
  else if (token.code === 'credentials-refused') lines.push(doctorLine('fail', 'qq', `credentials set, but ${hostOf(tokenRoot)} refused them: check QQ_APP_ID and QQ_APP_SECRET on q.qq.com`));
  // The message may name the host but never the secret: the secret travels in the body only.
  else lines.push(doctorLine('fail', 'qq', `credentials set, but the token endpoint could not be used: ${token.message}`));
  if (settings.allowFrom.length === 0 && settings.groups.length === 0) lines.push(doctorLine('warn', 'qq', 'QQ_ALLOW_FROM and QQ_GROUPS are empty: nobody reaches the model (a stranger is told their openid)'));
  if (settings.mode === 'webhook') lines.push(doctorLine('ok', 'qq', 'webhook mode: set the callback URL on q.qq.com to https://<your host>/qq/callback (the HTTP gateway)'));
  return lines;
}
