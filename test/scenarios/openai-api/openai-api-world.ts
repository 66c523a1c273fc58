import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { z } from 'zod';
import { defineTool } from '../../../src/registry/define-tool.js';
import { createDeployTool } from '../../fakes/deploy-tool.js';
import { createScriptedModelServer, type ScriptedHandler, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../../fakes/start-test-app.js';

/** The keys of the test world: alice approves cards, bob and carol do not. */
export const apiKeys = { alice: 'sk-echo-alice-0123456789abcdef', bob: 'sk-echo-bob-0123456789abcdef', carol: 'sk-echo-carol-0123456789abcdef' } as const;

/**
 * A model that behaves like a real one: "deploy X" → the risky deploy tool; "look up order N" → the read-only lookup
 * tool; after a tool result → `done: <result>`; anything else → `echo: <text>`.
 */
export const worldModel: ScriptedHandler = (body, context) => {
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
  const deploy = /deploy (\w+)/.exec(context.lastUserText);
  if (deploy && last?.role === 'user') return { toolCalls: [{ name: 'deploy', arguments: { target: deploy[1] ?? '' } }] };
  const order = /look up order (\d+)/.exec(context.lastUserText);
  if (order && last?.role === 'user') return { toolCalls: [{ name: 'lookup_order', arguments: { order: order[1] ?? '' } }] };
  return { text: `echo: ${context.lastUserText}` };
};

/** A running app with the endpoint on, its model, its tools' runs and a client per key. */
export type OpenaiApiWorld = {
  readonly app: TestApp;
  readonly model: ScriptedModelServer;
  readonly baseUrl: string;
  readonly deployRuns: readonly string[];
  readonly lookups: readonly string[];
  client(key: string): OpenAI;
  stop(): Promise<void>;
};

/** Starts the app over the scripted model with three keys, alice the approver, and the deploy and lookup tools. */
export async function startOpenaiApiWorld(options: { readonly environment?: Readonly<Record<string, string>>; readonly yaml?: readonly string[] } = {}): Promise<OpenaiApiWorld> {
  const folder = mkdtempSync(join(tmpdir(), 'echo-openai-api-'));
  const configFile = join(folder, 'config.yaml');
  writeFileSync(configFile, ['tools:', '  alsoAllow: [deploy, lookup_order]', 'approvals:', '  explain: false', ...(options.yaml ?? [])].join('\n'));
  const model = await createScriptedModelServer({ fallback: worldModel });
  const deploy = createDeployTool();
  const lookups: string[] = [];
  const lookup = defineTool({
    name: 'lookup_order',
    description: 'Look an order up.',
    input: z.object({ order: z.string() }),
    risk: 'read_only',
    sideEffects: false,
    execute: async (input) => {
      lookups.push(input.order);
      return { ok: true, output: `order ${input.order} shipped` };
    },
  });
  const keys = Object.entries(apiKeys)
    .map(([user, key]) => `${key}:${user}`)
    .join(',');
  const app = await startTestApp({ configFile, extraTools: [deploy.tool, lookup], environment: { OPENAI_BASE_URL: model.url, ECHO_API_KEYS: keys, ECHO_API_APPROVERS: 'alice', ...options.environment } });
  const address = app.app.gateway?.address();
  if (!address) throw new Error('the gateway is not listening');
  const baseUrl = `http://${address.host}:${address.port}`;
  return {
    app,
    model,
    baseUrl,
    deployRuns: deploy.runs,
    lookups,
    client: (key) => new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 }),
    async stop() {
      await app.stop();
      await model.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON to the gateway with a bearer key; the answer's status and parsed body. */
export async function postJson(input: { readonly baseUrl: string; readonly path: string; readonly key?: string; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> }): Promise<{ readonly status: number; readonly body: unknown }> {
  const response = await fetch(`${input.baseUrl}${input.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(input.key === undefined ? {} : { authorization: `Bearer ${input.key}` }), ...input.headers },
    body: typeof input.body === 'string' ? input.body : JSON.stringify(input.body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}
