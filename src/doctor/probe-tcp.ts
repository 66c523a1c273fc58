import { createConnection } from 'node:net';
import { describeNetworkCode } from './describe-network-code.js';
import { formatSeconds } from './doctor-line.js';

/** Whether a TCP connection to host:port opens within the deadline; the error code when it does not. */
export type TcpProbe = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Opens and at once closes a TCP connection, so nothing is left running whatever happens. */
export function probeTcp(options: { readonly host: string; readonly port: number; readonly timeoutMs: number }): Promise<TcpProbe> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: options.host, port: options.port });
    const finish = (result: TcpProbe) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(options.timeoutMs, () => finish({ ok: false, reason: `no answer within ${formatSeconds(options.timeoutMs)}` }));
    socket.once('connect', () => finish({ ok: true }));
    socket.once('error', (error: NodeJS.ErrnoException) => finish({ ok: false, reason: describeNetworkCode(error.code) ?? error.message }));
  });
}
