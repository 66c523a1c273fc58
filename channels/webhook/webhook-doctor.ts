import { createServer } from 'node:net';
import type { ChannelDoctor } from '../../src/doctor/channel-doctor.js';
import { type DoctorLine, doctorLine } from '../../src/doctor/doctor-line.js';
import { type WebhookConfig as WebhookSettings, webhookConfig } from './webhook-config.js';

/** The webhook channel's doctor lines: signed messages on or off, the gateway's address, and whether it is exposed. */
export const webhookDoctor: ChannelDoctor = {
  isConfigured: (config) => webhookConfig.read(config).secret !== undefined,
  async check({ config, publicRoutes }) {
    const settings = webhookConfig.read(config);
    return [...(await checkWebhook(settings)), ...[describeGatewayExposure(settings, publicRoutes)].filter((line) => line !== undefined)];
  },
};

/** The gateway lines: whether signed messages are accepted, and whether host:port can be bound. */
export async function checkWebhook(settings: WebhookSettings): Promise<DoctorLine[]> {
  return [describeWebhookMessages(settings), describeListen(await probeListen({ host: settings.host, port: settings.port }), settings)];
}

/** POST /v1/messages is on only with a secret; without one it is simply off, not an error. Pure. */
export function describeWebhookMessages(settings: WebhookSettings): DoctorLine {
  if (!settings.secret) return doctorLine('off', 'webhook', 'POST /v1/messages off: WEBHOOK_SECRET is not set');
  return doctorLine('ok', 'webhook', 'POST /v1/messages on (requests must be signed with WEBHOOK_SECRET)');
}

/**
 * A gateway reachable from other machines (a public WEBHOOK_HOST, or Telegram's webhook mode behind a
 * proxy) also serves /metrics and /healthz: without WEBHOOK_METRICS_TOKEN they tell anyone about the
 * channels (and the WeChat account name). Pure.
 */
export function describeGatewayExposure(settings: WebhookSettings, publicRoutes: boolean): DoctorLine | undefined {
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(settings.host);
  if ((loopback && !publicRoutes) || settings.metricsToken !== undefined) return undefined;
  return doctorLine('warn', 'webhook', 'the gateway is reachable from outside: set WEBHOOK_METRICS_TOKEN so /metrics and the detailed /healthz need a bearer token, and proxy only the paths you publish');
}

/** Whether the gateway (/healthz, /metrics, and messages when on) can listen where it is configured to. Pure. */
export function describeListen(probe: ListenProbe, settings: WebhookSettings): DoctorLine {
  const where = `${settings.host}:${settings.port}`;
  if (probe.ok) return doctorLine('ok', 'webhook', `${where} is free for the HTTP gateway (/healthz, /metrics)`);
  switch (probe.code) {
    case 'EADDRINUSE':
      return doctorLine('fail', 'webhook', `port ${settings.port} is in use on ${settings.host} (echo-agent already running?): stop it or set WEBHOOK_PORT`);
    case 'EACCES':
    case 'EPERM':
      return doctorLine('fail', 'webhook', `port ${settings.port} needs privileges on this machine: set WEBHOOK_PORT above 1023`);
    case 'EADDRNOTAVAIL':
      return doctorLine('fail', 'webhook', `${settings.host} is not an address of this machine: set WEBHOOK_HOST (127.0.0.1, or 0.0.0.0 for every interface)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return doctorLine('fail', 'webhook', `the host name ${settings.host} does not resolve: set WEBHOOK_HOST`);
    default:
      return doctorLine('fail', 'webhook', `cannot listen on ${where} (${probe.code})`);
  }
}

/** Whether host:port can be bound now, or the error code when it cannot. */
export type ListenProbe = { readonly ok: true } | { readonly ok: false; readonly code: string };

/** Listens on host:port and closes again at once. */
export function probeListen(options: { readonly host: string; readonly port: number }): Promise<ListenProbe> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, code: error.code ?? error.message }));
    server.listen(options.port, options.host, () => {
      server.close(() => resolve({ ok: true }));
    });
  });
}
