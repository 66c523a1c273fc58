import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deriveSigningKey } from '../../../channels/qq/derive-signing-key.js';
import { handleCallback } from '../../../channels/qq/handle-callback.js';
import type { QqPayload } from '../../../channels/qq/payload-schema.js';

/** A stand-in for the gateway route the lead will mount: POST /qq/callback → handleCallback. */
export type ServedQqCallback = { readonly url: string; readonly dispatches: QqPayload[]; readonly refusals: string[]; stop(): Promise<void> };

/** Serves the channel's callback handler on 127.0.0.1 at `/qq/callback`. */
export async function serveQqCallback(input: { readonly appId: string; readonly secret: string }): Promise<ServedQqCallback> {
  const settings = { key: deriveSigningKey(input.secret), appId: input.appId };
  const dispatches: QqPayload[] = [];
  const refusals: string[] = [];
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/qq/callback') {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const outcome = handleCallback(settings, { headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8'), now: new Date() });
    response.writeHead(outcome.status, { 'content-type': 'application/json' }).end(outcome.body);
    if (outcome.dispatch) dispatches.push(outcome.dispatch);
    if (outcome.refusal) refusals.push(outcome.refusal);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/qq/callback`,
    dispatches,
    refusals,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
