import type { ChannelDoctor } from '../../src/doctor/channel-doctor.js';
import { type DoctorLine, doctorLine } from '../../src/doctor/doctor-line.js';
import { type OpenaiApiConfig, openaiApiConfig } from './openai-api-config.js';

/** The channel's doctor line: the endpoint on or off, with how many keys and who approves. */
export const openaiApiDoctor: ChannelDoctor = {
  isConfigured: (config) => openaiApiConfig.read(config).keys.length > 0,
  async check({ config, channelName }) {
    return [describeApiEndpoint(openaiApiConfig.read(config), channelName)];
  },
};

/** On with at least one key; a key given twice, or an approver no key stands for, is a warning. Pure. */
export function describeApiEndpoint(settings: OpenaiApiConfig, subject: string = openaiApiConfig.name): DoctorLine {
  if (settings.keys.length === 0) return doctorLine('off', subject, 'POST /v1/chat/completions off: ECHO_API_KEYS is not set');
  const users = new Set(settings.keys.map((key) => key.user));
  if (new Set(settings.keys.map((key) => key.secret)).size < settings.keys.length) return doctorLine('fail', subject, 'the same API key is given twice in ECHO_API_KEYS (each key must stand for one user)');
  const strangers = settings.approvers.filter((approver) => !users.has(approver));
  const approvers = settings.approvers.length === 0 ? 'cards are decided by their requester' : `cards are decided by ${settings.approvers.join(', ')}`;
  const base = `POST /v1/chat/completions on for ${settings.keys.length} key(s) of ${users.size} user(s); ${approvers}`;
  if (strangers.length > 0) return doctorLine('warn', subject, `${base}; no key stands for approver(s) ${strangers.join(', ')}`);
  return doctorLine('ok', subject, base);
}
