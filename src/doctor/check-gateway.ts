import { createServer } from 'node:net';
import type { Config } from '../config/config-schema.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

type GatewaySettings = Config['gateway'];

/** The HTTP gateway's lines (server mode): whether host:port can be bound, and whether it is exposed without a token. */
export async function checkGateway(settings: GatewaySettings, publicRoutes: boolean): Promise<DoctorLine[]> {
  const exposure = describeGatewayExposure(settings, publicRoutes);
  return [describeListen(await probeListen({ host: settings.host, port: settings.port }), settings), ...(exposure === undefined ? [] : [exposure])];
}

/**
 * A gateway reachable from other machines (a public GATEWAY_HOST, or a channel's webhook mode behind a proxy) also
 * serves /metrics and /healthz: without GATEWAY_METRICS_TOKEN they tell anyone about the channels. Pure.
 */
export function describeGatewayExposure(settings: GatewaySettings, publicRoutes: boolean): DoctorLine | undefined {
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(settings.host);
  if ((loopback && !publicRoutes) || settings.metricsToken !== undefined) return undefined;
  return doctorLine('warn', 'gateway', 'the gateway is reachable from outside: set GATEWAY_METRICS_TOKEN so /metrics and the detailed /healthz need a bearer token, and proxy only the paths you publish');
}

/** Whether the gateway (/healthz, /metrics and the channels' routes) can listen where it is configured to. Pure. */
export function describeListen(probe: ListenProbe, settings: GatewaySettings): DoctorLine {
  const where = `${settings.host}:${settings.port}`;
  if (probe.ok) return doctorLine('ok', 'gateway', `${where} is free for the HTTP gateway (/healthz, /metrics)`);
  switch (probe.code) {
    case 'EADDRINUSE':
      return doctorLine('fail', 'gateway', `port ${settings.port} is in use on ${settings.host} (echo-agent already running?): stop it or set GATEWAY_PORT`);
    case 'EACCES':
    case 'EPERM':
      return doctorLine('fail', 'gateway', `port ${settings.port} needs privileges on this machine: set GATEWAY_PORT above 1023`);
    case 'EADDRNOTAVAIL':
      return doctorLine('fail', 'gateway', `${settings.host} is not an address of this machine: set GATEWAY_HOST (127.0.0.1, or 0.0.0.0 for every interface)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return doctorLine('fail', 'gateway', `the host name ${settings.host} does not resolve: set GATEWAY_HOST`);
    default:
      return doctorLine('fail', 'gateway', `cannot listen on ${where} (${probe.code})`);
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
