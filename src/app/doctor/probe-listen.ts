import { createServer } from 'node:net';

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
