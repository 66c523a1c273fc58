import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, AgentCard as AgentCardJson, Role, TaskState } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { AgentEvent, type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext } from '@a2a-js/sdk/server';

/** A minimal A2A peer built on the SDK's server pieces: it asks "Which color?" (input-required) and paints with the answer. */
export type FakeA2aPeer = { readonly url: string; readonly answers: readonly string[]; close(): Promise<void> };

const text = (value: string) => ({ content: { $case: 'text' as const, value }, metadata: undefined, filename: '', mediaType: 'text/plain' });

/** Starts the peer on a free port of 127.0.0.1, speaking protocol 1.0 (default) or only 0.3 (a v0.3 card and methods). */
export async function startFakeA2aPeer(options: { readonly protocol?: '1.0' | '0.3' } = {}): Promise<FakeA2aPeer> {
  const legacy = options.protocol === '0.3';
  const answers: string[] = [];
  const executor: AgentExecutor = {
    async execute(context, bus) {
      const task = { taskId: context.taskId, contextId: context.contextId };
      const now = new Date().toISOString();
      const message = (value: string) => ({ messageId: randomUUID(), ...task, role: Role.ROLE_AGENT, parts: [text(value)], metadata: undefined, extensions: [], referenceTaskIds: [] });
      bus.publish(AgentEvent.task(context.task ?? { id: context.taskId, contextId: context.contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now }, artifacts: [], history: [context.userMessage], metadata: undefined }));
      const said = context.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
      if (context.task === undefined) {
        bus.publish(AgentEvent.statusUpdate({ ...task, status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: message('Which color?'), timestamp: now }, metadata: undefined }));
        return;
      }
      answers.push(said);
      bus.publish(AgentEvent.artifactUpdate({ ...task, artifact: { artifactId: 'result', name: 'result', description: '', parts: [text(`painted ${said}`)], metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined }));
      bus.publish(AgentEvent.statusUpdate({ ...task, status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now }, metadata: undefined }));
    },
    async cancelTask() {},
  };
  let card: AgentCard | undefined;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        if (request.method === 'GET') {
          const body = legacy ? { protocolVersion: '0.3.0', name: 'painter', description: 'Paints things.', url: `${url}/rpc`, preferredTransport: 'JSONRPC', version: '1.0.0', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [] } : AgentCardJson.toJSON(card as AgentCard);
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const answer = legacy ? await legacyRpc.handle(body, new ServerCallContext({ requestedVersion: '0.3' })) : await rpc.handle(body, new ServerCallContext({ requestedVersion: '1.0' }));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = {
    name: 'painter',
    description: 'Paints things.',
    supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: legacy ? '0.3' : '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const rpc = new JsonRpcTransportHandler(handler);
  const legacyRpc = new LegacyJsonRpcTransportHandler(handler);
  return { url, answers, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
