import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/registry/define-tool.js';
import { type FakeA2aPeer, startFakeA2aPeer } from '../../fakes/fake-a2a-peer.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../../fakes/start-test-app.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const calleeKey = 'caller-secret-0123456789abcdefgh';
const personKey = 'sk-echo-person-0123456789abcdef';

/** The callee: an A2A server whose key may publish (a write that always asks its Telegram approver). */
const calleeYaml = ['approvals:', '  explain: false', '  route: approvers', 'channels:', '  a2a-server:', '    keys:', `      - { name: caller, secret: ${calleeKey}, tools: { alsoAllow: [publish_post] } }`].join('\n');

function createPublishTool() {
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

function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the card: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

/** The caller: a2a.peers.peer points at the callee, a person reaches it over the OpenAI-compatible API. */
async function startCaller(calleeUrl: string): Promise<{ readonly app: TestApp; readonly model: ScriptedModelServer; readonly baseUrl: string; stop(): Promise<void> }> {
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

let callee: TelegramScenario | undefined;
let caller: Awaited<ReturnType<typeof startCaller>> | undefined;
afterEach(async () => {
  await caller?.stop();
  await callee?.stop();
  caller = undefined;
  callee = undefined;
});

describe('a2a__<peer>: another echo-agent as a governed tool', () => {
  it("the caller's model calls a2a__peer; the callee's turn waits for its approver's button, completes, and the caller's answer carries the result", async () => {
    const publish = createPublishTool();
    callee = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml: calleeYaml, extraTools: [publish.tool] });
    callee.model.enqueue({ toolCalls: [{ name: 'publish_post', arguments: { title: 'launch' } }] }, { text: 'published launch for you' });
    const address = callee.testApp.app.gateway?.address();
    if (!address) throw new Error('the callee gateway is not listening');
    caller = await startCaller(`http://${address.host}:${address.port}`);
    expect(caller.app.app.registry.names()).toContain('a2a__peer');

    const answer = new OpenAI({ apiKey: personKey, baseURL: `${caller.baseUrl}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'please ask the peer to publish' }], user: 'launch' });
    const card = await callee.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card in the callee chat', 20_000);
    expect(card.text).toContain('launch');
    expect(publish.runs).toEqual([]);
    const approver = callee.client({ userId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));

    const completion = await answer;
    expect(completion.choices[0]?.message.content).toMatch(/^the peer says: published launch for you\n\n\[task [0-9a-f-]{36} of the agent "peer"\]$/);
    expect(publish.runs).toEqual(['launch']);
  });
});

describe('a2a__<peer>: a peer that needs input', () => {
  let painter: FakeA2aPeer | undefined;
  afterEach(async () => {
    await painter?.close();
    painter = undefined;
  });

  it("shows the peer's question to the person in the chat and sends their answer back on the same task", async () => {
    painter = await startFakeA2aPeer();
    caller = await startCaller(painter.url);
    const client = new OpenAI({ apiKey: personKey, baseURL: `${caller.baseUrl}/v1`, maxRetries: 0 });
    const ask = (content: string) => client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content }], user: 'paint' });
    const question = await ask('please ask the peer to paint');
    expect(question.choices[0]?.message.content).toContain('The agent "peer" asks: Which color?');
    const second = await ask('blue');
    expect(second.choices[0]?.message.content).toContain('the peer says: painted blue');
    expect(painter.answers).toEqual(['blue']);
  });

  it('reaches a peer still on protocol 0.3 through the SDK’s compatibility layer, question and answer included', async () => {
    painter = await startFakeA2aPeer({ protocol: '0.3' });
    caller = await startCaller(painter.url);
    const client = new OpenAI({ apiKey: personKey, baseURL: `${caller.baseUrl}/v1`, maxRetries: 0 });
    const ask = (content: string) => client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content }], user: 'paint-old' });
    expect((await ask('please ask the peer to paint')).choices[0]?.message.content).toContain('The agent "peer" asks: Which color?');
    expect((await ask('green')).choices[0]?.message.content).toContain('the peer says: painted green');
    expect(painter.answers).toEqual(['green']);
  });
});
