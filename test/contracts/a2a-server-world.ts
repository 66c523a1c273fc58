import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@a2a-js/sdk/client';
import { connectA2aClient } from '../fakes/a2a-test-client.js';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { createScriptedModelServer, type ScriptedHandler, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../fakes/start-test-app.js';
import { gatewayOf } from '../fakes/webhook-client.js';

/** The keys of the test world: alpha may look orders up, beta has the channel's minimal tools, gamma 2 requests a minute, delta a budget of 5 tokens a day. */
export const a2aKeys = { alpha: 'alpha-secret-0123456789abcdefgh', beta: 'beta-secret-0123456789abcdefghij', gamma: 'gamma-secret-0123456789abcdefgh', delta: 'delta-secret-0123456789abcdefgh' } as const;

/** "look up order N" → lookup_order; "wait for the gate" → gate (held until released); after a tool → `done: <result>`; else `echo: <text>`. */
const worldModel: ScriptedHandler = (body, context) => {
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
  const order = /look up order (\d+)/.exec(context.lastUserText);
  if (order && last?.role === 'user') return { toolCalls: [{ name: 'lookup_order', arguments: { order: order[1] ?? '' } }] };
  if (/who am i/.test(context.lastUserText) && last?.role === 'user') return { toolCalls: [{ name: 'whoami', arguments: {} }] };
  if (/wait for the gate/.test(context.lastUserText) && last?.role === 'user') return { toolCalls: [{ name: 'gate', arguments: {} }] };
  return { text: `echo: ${context.lastUserText}` };
};

/** The trust facts a tool saw. */
export type Caller = { readonly origin: string; readonly unattended: boolean; readonly userId: string };

/** A running app with the A2A server on, its model, and SDK clients per key. */
export type A2aServerWorld = {
  readonly app: TestApp;
  readonly model: ScriptedModelServer;
  readonly baseUrl: string;
  /** Who each `whoami` call ran for. */
  readonly callers: readonly Caller[];
  /** Lets the held `gate` tool finish. */
  openGate(): void;
  /** The SDK's own client, speaking JSON-RPC v1.0 with this key. */
  client(key: string): Promise<Client>;
  stop(): Promise<void>;
};

/** Starts the app over the scripted model with three A2A keys and the lookup and gate tools. */
export async function startA2aServerWorld(): Promise<A2aServerWorld> {
  const folder = mkdtempSync(join(tmpdir(), 'echo-a2a-'));
  const configFile = join(folder, 'config.yaml');
  writeFileSync(
    configFile,
    [
      'channels:',
      '  a2a-server:',
      '    name: test-agent',
      '    description: An agent under test.',
      '    skills: [{ id: orders, name: Orders, description: Looks orders up. }]',
      '    keys:',
      `      - { name: alpha, secret: ${a2aKeys.alpha}, tools: { alsoAllow: [lookup_order, gate, whoami] } }`,
      `      - { name: beta, secret: ${a2aKeys.beta} }`,
      `      - { name: gamma, secret: ${a2aKeys.gamma}, callsPerMinute: 2 }`,
      `      - { name: delta, secret: ${a2aKeys.delta}, budget: { daily: { tokens: 5 } } }`,
    ].join('\n'),
  );
  const model = await createScriptedModelServer({ fallback: worldModel });
  // Each gate call waits for the next openGate(); a new gate then stands for the next call.
  const newGate = () => {
    let open = () => {};
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };
  let gateNow = newGate();
  const openGate = () => {
    gateNow.open();
    gateNow = newGate();
  };
  const lookup = defineTool({ name: 'lookup_order', description: 'Look an order up.', input: z.object({ order: z.string() }), risk: 'read_only', sideEffects: false, execute: async (input) => ({ ok: true, output: `order ${input.order} shipped` }) });
  const gate = defineTool({
    name: 'gate',
    description: 'Waits for the gate.',
    input: z.object({}),
    risk: 'read_only',
    sideEffects: false,
    timeoutMs: 60_000,
    execute: async () => {
      await gateNow.opened;
      return { ok: true, output: 'gate passed' };
    },
  });
  const callers: Caller[] = [];
  const whoami = defineTool({
    name: 'whoami',
    description: 'Says who the turn runs for.',
    input: z.object({}),
    risk: 'read_only',
    sideEffects: false,
    execute: async (_input, context) => {
      callers.push({ origin: context.origin, unattended: context.unattended, userId: context.userId });
      return { ok: true, output: `${context.origin} ${context.userId}` };
    },
  });
  const app = await startTestApp({ configFile, extraTools: [lookup, gate, whoami], environment: { OPENAI_BASE_URL: model.url } });
  const { baseUrl } = gatewayOf(app.app);
  return {
    app,
    model,
    baseUrl,
    callers,
    openGate,
    client: (key) => connectA2aClient(baseUrl, key),
    async stop() {
      openGate();
      await app.stop();
      await model.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
