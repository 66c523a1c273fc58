import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../../src/registry/define-tool.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../../fakes/start-test-app.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';

/** The key the caller sends the callee. */
export const calleeKey = 'caller-secret-0123456789abcdefgh';
/** The person's key on the caller's OpenAI-compatible API. */
export const personKey = 'sk-echo-person-0123456789abcdef';

/** The callee: an A2A server whose key may publish (a write that always asks its Telegram approver). */
export const calleeYaml = ['approvals:', '  explain: false', '  route: approvers', 'channels:', '  a2a-server:', '    keys:', `      - { name: caller, secret: ${calleeKey}, tools: { alsoAllow: [publish_post] } }`].join('\n');

/** A write tool that always asks (an exec one is refused outright in unattended turns); it counts its runs. */
export function createPublishTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'publish_post',
    description: 'Publish a post.',
    input: z.object({ title: z.string() }),
    risk: 'write',
    approval: 'always',
    sideEffects: true,
    describeForApproval: (input) => `Publish the post "${input.title}"`,
    execute: async (input) => {
      runs.push(input.title);
      return { ok: true, output: `published ${input.title}` };
    },
  });
  return { tool, runs };
}

/** A read-only tool that runs until its signal fires (or a minute passes); it counts its starts and the aborts it saw. */
export function createSlowTool() {
  const seen = { started: 0, aborted: 0 };
  const tool = defineTool({
    name: 'slow_report',
    description: 'Build a long report.',
    input: z.object({ topic: z.string() }),
    risk: 'read_only',
    timeoutMs: 120_000,
    execute: (_input, context) =>
      new Promise((resolve) => {
        seen.started += 1;
        const timer = setTimeout(() => resolve({ ok: true, output: 'the report' }), 60_000);
        context.signal.addEventListener('abort', () => {
          seen.aborted += 1;
          clearTimeout(timer);
          resolve({ ok: false, error: 'stopped' });
        });
      }),
  });
  return { tool, seen };
}

/** The callback data of the card's button whose label matches. */
export function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the card: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

/** The caller: a2a.peers.peer points at the callee, a person reaches it over the OpenAI-compatible API. */
export async function startCaller(calleeUrl: string): Promise<{ readonly app: TestApp; readonly model: ScriptedModelServer; readonly baseUrl: string; stop(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'echo-a2a-caller-'));
  const configFile = join(folder, 'config.yaml');
  writeFileSync(
    configFile,
    ['tools:', '  alsoAllow: [a2a__peer]', 'a2a:', '  peers:', '    peer:', `      url: ${calleeUrl}`, `      headers: { Authorization: "Bearer ${calleeKey}" }`, '      risk: read_only', '      timeoutSeconds: 60'].join('\n'),
  );
  const model = await createScriptedModelServer({
    fallback: (body, context) => {
      const last = body.messages?.at(-1);
      if (last?.role === 'tool') return { text: `the peer says: ${String(last.content)}` };
      if (/ask the peer/.test(context.lastUserText)) return { toolCalls: [{ name: 'a2a__peer', arguments: { message: 'publish the launch post' } }] };
      return { text: `echo: ${context.lastUserText}` };
    },
  });
  const app = await startTestApp({ configFile, environment: { OPENAI_BASE_URL: model.url, ECHO_API_KEYS: `${personKey}:person` } });
  const address = app.app.gateway?.address();
  if (!address) throw new Error('the caller gateway is not listening');
  return {
    app,
    model,
    baseUrl: `http://${address.host}:${address.port}`,
    async stop() {
      await app.stop();
      await model.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

