import type { ChannelDoctor } from '../../src/doctor/channel-doctor.js';
import { type DoctorLine, doctorLine } from '../../src/doctor/doctor-line.js';
import type { WechatPuppetCheck } from './check-wechat-puppet.js';
import { type WechatConfig as WechatSettings, wechatConfig } from './wechat-config.js';

/** WeChat's doctor lines: on with `WECHAT_ENABLED`; then the puppet, and who can reach the bot. */
export const wechatDoctor: ChannelDoctor = {
  isConfigured: (config) => wechatConfig.read(config).enabled,
  check: ({ config }) => checkWechat(wechatConfig.read(config)),
};

/** The WeChat lines: off unless enabled, else whether the puppet is installed and has its token, plus who can reach the bot. */
export async function checkWechat(settings: WechatSettings): Promise<DoctorLine[]> {
  if (!settings.enabled) return [doctorLine('off', 'wechat', 'off: WECHAT_ENABLED is not true')];
  // The check only resolves the puppet package; wechaty itself is never imported here.
  const { checkWechatPuppet } = await import('./check-wechat-puppet.js');
  return [describeWechatPuppet(checkWechatPuppet({ puppet: settings.puppet, puppetToken: settings.puppetToken }), settings), ...wechatWarnings(settings)];
}

/** The puppet check in words. Pure. */
export function describeWechatPuppet(check: WechatPuppetCheck, settings: WechatSettings): DoctorLine {
  if (check.ok) return doctorLine('ok', 'wechat', `${settings.puppet} is installed (log in by scanning the QR code npm start prints)`);
  switch (check.reason) {
    case 'not-installed':
      return doctorLine('fail', 'wechat', `the puppet ${settings.puppet} is not installed: ${check.installHint}`);
    case 'not-importable':
      return doctorLine('fail', 'wechat', `the puppet ${settings.puppet} is installed but cannot be imported (${check.code})`);
    case 'token-missing':
      return doctorLine('fail', 'wechat', `${settings.puppet} needs a token: set WECHAT_PUPPET_TOKEN`);
  }
}

/** Who can reach the bot and who decides approvals, when either is worth a second look. Pure. */
export function wechatWarnings(settings: WechatSettings): DoctorLine[] {
  const lines: DoctorLine[] = [];
  if (settings.allowFrom.length === 0 && settings.rooms.length === 0) {
    lines.push(doctorLine('warn', 'wechat', 'WECHAT_ALLOW_FROM and WECHAT_ROOMS are empty: nobody can reach the model'));
  }
  if (settings.approvers.length === 0) {
    lines.push(doctorLine('warn', 'wechat', 'WECHAT_APPROVERS is empty: each requester approves their own actions'));
  }
  return lines;
}
