import type { ChannelDoctor } from '../../src/doctor/channel-doctor.js';
import { type DoctorLine, doctorLine } from '../../src/doctor/doctor-line.js';
import { type A2aConfig, a2aConfig } from './a2a-config.js';
import { a2aRpcPath, agentCardPath } from './agent-card.js';

/** The channel's doctor line: the A2A server on or off, with its keys by name (never their secrets). */
export const a2aServerDoctor: ChannelDoctor = {
  isConfigured: (config) => a2aConfig.read(config).keys.length > 0,
  async check({ config, channelName }) {
    return [describeA2aServer(a2aConfig.read(config), channelName)];
  },
};

/** On with at least one key; the same secret under two names, or a name given twice, fails. Pure. */
export function describeA2aServer(settings: A2aConfig, subject: string = a2aConfig.name): DoctorLine {
  if (settings.keys.length === 0) return doctorLine('off', subject, `A2A off: no key in channels.${subject}.keys`);
  if (new Set(settings.keys.map((key) => key.secret)).size < settings.keys.length) return doctorLine('fail', subject, 'the same A2A key secret is given twice (each key stands for one calling agent)');
  if (new Set(settings.keys.map((key) => key.name)).size < settings.keys.length) return doctorLine('fail', subject, 'an A2A key name is given twice');
  const where = settings.publicUrl === undefined ? 'the card names the Host it is asked on' : `card URL ${settings.publicUrl}${a2aRpcPath}`;
  return doctorLine('ok', subject, `A2A on: ${agentCardPath} and POST ${a2aRpcPath} for ${settings.keys.map((key) => key.name).join(', ')}; ${where}`);
}
