import type { Config } from '../config/config-schema.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

const loopbackHosts = ['127.0.0.1', 'localhost', '::1'];

/**
 * The web console's line when it is on: where its links point, and a warning when people would reach it without TLS
 * (the session cookie is then not Secure). No line while it is off. Pure.
 */
export function describeConsole(config: Pick<Config, 'console' | 'gateway'>): DoctorLine[] {
  if (!config.console.enabled) return [];
  const { publicUrl } = config.console;
  if (publicUrl?.startsWith('https://')) return [doctorLine('ok', 'console', `on at ${publicUrl.replace(/\/+$/, '')}/console; log in with /console in a private chat`)];
  const local = publicUrl === undefined ? loopbackHosts.includes(config.gateway.host) : loopbackHosts.includes(new URL(publicUrl).hostname);
  if (local) return [doctorLine('ok', 'console', `on at http://${config.gateway.host}:${config.gateway.port}/console for this machine only (an SSH tunnel reaches it); log in with /console in a private chat`)];
  return [doctorLine('warn', 'console', 'the console is reachable without TLS: put the gateway behind an https proxy and set CONSOLE_PUBLIC_URL=https://…, so login links and the session cookie are not sent in clear')];
}
