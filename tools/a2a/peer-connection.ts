import { randomUUID } from 'node:crypto';
import { type Message, Role, type Task } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import type { A2aPeer } from '../../src/config/a2a-schema.js';

/** What a peer answered a message with: a task (in whatever state it stopped at) or a plain message. */
export type PeerReply = { readonly kind: 'task'; readonly task: Task } | { readonly kind: 'message'; readonly message: Message };

/** One peer, reached through the SDK's client over JSON-RPC, its configured headers on every request. */
export type PeerConnection = {
  /** Sends text (a new task, or more input for `taskId`) and waits until the task finishes or needs input. */
  send(input: { readonly text: string; readonly taskId?: string; readonly contextId?: string; readonly signal: AbortSignal }): Promise<PeerReply>;
  /** Reads a task again (a call resumed after a restart). */
  get(taskId: string, signal: AbortSignal): Promise<Task>;
  cancel(taskId: string, signal: AbortSignal): Promise<void>;
};

/** Creates the connection; the Agent Card is read on first use (and again after a failure). */
export function createPeerConnection(peer: A2aPeer): PeerConnection {
  const headers = peer.headers;
  const fetchWithHeaders: typeof fetch = (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
  let client: Promise<Client> | undefined;
  const connect = (): Promise<Client> => {
    client ??= new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        // Peers still on protocol 0.3 are reached through the SDK's compatibility layer.
        transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithHeaders, legacyCompat: { enabled: true } })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchWithHeaders, legacyCompat: { enabled: true } }),
      }),
    )
      .createFromUrl(peer.url)
      .catch((error: unknown) => {
        client = undefined;
        throw error;
      });
    return client;
  };
  return {
    async send(input) {
      const message: Message = {
        messageId: randomUUID(),
        contextId: input.contextId ?? '',
        taskId: input.taskId ?? '',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: input.text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      };
      const result = await (await connect()).sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined }, { signal: input.signal });
      return 'messageId' in result ? { kind: 'message', message: result } : { kind: 'task', task: result };
    },
    get: async (taskId, signal) => (await connect()).getTask({ tenant: '', id: taskId, historyLength: 0 }, { signal }),
    async cancel(taskId, signal) {
      await (await connect()).cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal });
    },
  };
}
