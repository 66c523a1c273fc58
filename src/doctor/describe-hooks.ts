import type { Config } from '../config/config-schema.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

/**
 * One line per named hook: its route and preset, whether its secret is set (or it runs unsigned, on purpose), and
 * whether the channel it delivers to is one of the adapters. Pure.
 */
export function describeHooks(config: Pick<Config, 'hooks'>, channelNames: readonly string[]): DoctorLine[] {
  return Object.entries(config.hooks).map(([name, hook]) => {
    const subject = `hook ${name}`;
    const target = `${hook.deliverTo.channel}:${hook.deliverTo.chatId}`;
    if (!channelNames.includes(hook.deliverTo.channel)) return doctorLine('fail', subject, `delivers to ${target}, but no channel is named ${hook.deliverTo.channel} (channels: ${channelNames.join(', ')})`);
    if (hook.verify === 'none') return doctorLine('warn', subject, `POST /hooks/${name} is unsigned (allowUnsigned: true): anyone who reaches the gateway can run it; answers go to ${target}`);
    if (hook.secret === undefined || hook.secret === '') return doctorLine('fail', subject, `verify ${hook.verify} needs a secret, and none is set`);
    return doctorLine('ok', subject, `POST /hooks/${name}, verify ${hook.verify}, secret set, answers go to ${target}`);
  });
}
