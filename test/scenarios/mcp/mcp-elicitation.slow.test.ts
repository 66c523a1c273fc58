import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer } from '../../fakes/scripted-model-server.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { startTestApp, waitFor } from '../../fakes/start-test-app.js';
import { gatewayOf, getPath, postSigned } from '../../fakes/webhook-client.js';
import { auditLines, createElicitationServerLog, type ElicitationServerLog, elicitationYaml } from './elicitation-test-server.js';

type McpHealth = Record<string, { state: string }>;

function toolResultsIn(scenario: TelegramScenario): string[] {
  const last = scenario.modelRequests().at(-1);
  return (last?.body?.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));
}

function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the question: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

describe('MCP elicitation in the chat (a server asks the person during a tool call)', () => {
  let scenario: TelegramScenario | undefined;
  let log: ElicitationServerLog;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
    log.remove();
  });

  async function start(options: { readonly risk?: string; readonly approvers?: string; readonly sampling?: boolean } = {}): Promise<TelegramScenario> {
    log = createElicitationServerLog();
    const yaml = elicitationYaml({ log, ...(options.risk === undefined ? {} : { risk: options.risk }), ...(options.sampling === undefined ? {} : { sampling: options.sampling }) });
    const started = await startTelegramScenario({ allowFrom: '1001,1002', ...(options.approvers === undefined ? {} : { approvers: options.approvers }), yaml });
    await waitFor(async () => ((await getPath(gatewayOf(started.testApp.app).baseUrl, '/healthz')).body as { mcp?: McpHealth }).mcp?.asker?.state === 'up', 'the asking server up');
    return started;
  }

  async function press(current: TelegramScenario, question: EmulatedBotMessage, label: RegExp, userId = 1001): Promise<void> {
    const client = current.client({ userId, chatId: 1001 });
    await client.sendCallback(client.makeCallbackQuery(buttonData(question, label), { message: { message_id: question.messageId } }));
  }

  async function say(current: TelegramScenario, text: string, userId = 1001): Promise<void> {
    const client = current.client({ userId, chatId: 1001 });
    await client.sendMessage(client.makeMessage(text));
  }

  const questionAbout = (current: TelegramScenario, pattern: RegExp, what: string) => current.waitForBotMessage((message) => pattern.test(message.text) && (message.keyboard?.length ?? 0) > 0, what);

  it('asks field by field (buttons for choices, a typed number asked again when out of range) and completes the call once with the answers', async () => {
    scenario = await start();
    scenario.model.enqueue({ toolCalls: [{ name: 'asker__order_coffee', arguments: {} }] });
    scenario.model.enqueue({ text: 'Your coffee is ordered.' });
    await say(scenario, 'order me a coffee');

    const size = await questionAbout(scenario, /\(1\/4\) Size/, 'the size question');
    expect(size.text).toContain('The MCP server "asker" asks: How would you like your coffee?');
    expect(size.text).toContain('default: small');
    await press(scenario, size, /^large$/);
    const sugar = await questionAbout(scenario, /\(2\/4\) Sugar/, 'the sugar question');
    await press(scenario, sugar, /^Yes$/);
    const cups = await questionAbout(scenario, /\(3\/4\) Cups/, 'the cups question');
    await say(scenario, '9');
    await questionAbout(scenario, /not accepted: at most 4/, 'the cups question again');
    await say(scenario, '2');
    const name = await questionAbout(scenario, /\(4\/4\) Name on the cup \(optional\)/, 'the name question');
    // The cups question was answered by typing: its buttons are stale, and a press is refused, not read as a choice now.
    await press(scenario, cups, /^Decline$/);
    const stale = await waitFor(() => scenario?.proxy.callsOf('answerCallbackQuery').find((call) => call.body.show_alert === true), 'the refusal of a stale button');
    expect(stale.body.text).toBe('That question is no longer open.');
    await press(scenario, name, /^Skip$/);

    await scenario.waitForBotMessage((message) => message.text === 'Your coffee is ordered.', 'the answer after the call');
    expect(toolResultsIn(scenario).at(-1)).toBe('ordered: {"size":"large","sugar":true,"cups":2}');
    const completed = log.entries().filter((entry) => entry.event === 'completed');
    expect(completed).toEqual([expect.objectContaining({ tool: 'order_coffee', action: 'accept', content: { size: 'large', sugar: true, cups: 2 } })]);
    expect(log.entries().filter((entry) => entry.event === 'started')).toHaveLength(1);

    await scenario.testApp.app.stop();
    const audit = auditLines(scenario.testApp.dataDir);
    expect(audit).toContainEqual(expect.objectContaining({ kind: 'elicitation-requested', server: 'asker', outcome: 'form' }));
    expect(audit).toContainEqual(expect.objectContaining({ kind: 'elicitation-answered', server: 'asker', outcome: 'accept', arguments: { size: 'large', sugar: true, cups: 2 } }));
  });

  it('sends decline (a button) and cancel (a typed reply) to the server', async () => {
    scenario = await start();
    scenario.model.enqueue({ toolCalls: [{ name: 'asker__confirm_transfer', arguments: { amount: 20 } }] });
    scenario.model.enqueue({ text: 'Not transferred.' });
    await say(scenario, 'send 20 EUR');
    const first = await questionAbout(scenario, /Transfer 20 EUR\?/, 'the confirmation');
    await press(scenario, first, /^Decline$/);
    await scenario.waitForBotMessage((message) => message.text === 'Not transferred.', 'the answer after decline');
    expect(toolResultsIn(scenario).at(-1)).toBe('not transferred (decline)');

    scenario.model.enqueue({ toolCalls: [{ name: 'asker__confirm_transfer', arguments: { amount: 30 } }] });
    scenario.model.enqueue({ text: 'Cancelled, nothing sent.' });
    await say(scenario, 'send 30 EUR');
    await questionAbout(scenario, /Transfer 30 EUR\?/, 'the second confirmation');
    await say(scenario, 'cancel');
    await scenario.waitForBotMessage((message) => message.text === 'Cancelled, nothing sent.', 'the answer after cancel');
    expect(toolResultsIn(scenario).at(-1)).toBe('not transferred (cancel)');
    expect(log.entries().filter((entry) => entry.event === 'completed').map((entry) => entry.action)).toEqual(['decline', 'cancel']);
  });

  it('above read_only, only the chat\'s approvers may answer', async () => {
    scenario = await start({ risk: 'write', approvers: '1002' });
    scenario.model.enqueue({ toolCalls: [{ name: 'asker__confirm_transfer', arguments: { amount: 5 } }] });
    scenario.model.enqueue({ text: 'Done.' });
    await say(scenario, 'send 5 EUR');
    // The call itself asks first (risk write): the approver approves it, then the server asks.
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.flat() ?? []).some((button) => /Approve/.test(button.text)), 'the approval card');
    const approver = scenario.client({ userId: 1002, chatId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));
    // Shown where the card was (approvals.route origin: the chat where the turn started); only an approver's answer counts.
    const question = await questionAbout(scenario, /Transfer 5 EUR\?/, 'the confirmation');
    await press(scenario, question, /^Yes$/, 1001);
    const refused = await waitFor(() => scenario?.proxy.callsOf('answerCallbackQuery').find((call) => call.body.show_alert === true), 'the refusal to the requester');
    expect(refused.body.text).toBe('Only the person who was asked can answer this.');
    expect(log.entries().filter((entry) => entry.event === 'completed')).toEqual([]);
    await press(scenario, question, /^Yes$/, 1002);
    await scenario.waitForBotMessage((message) => message.text === 'Done.', 'the answer');
    expect(toolResultsIn(scenario).at(-1)).toBe('transferred 5 EUR');
  });

  it('shows a URL-mode request as a link naming the server, and asks nothing', async () => {
    scenario = await start();
    scenario.model.enqueue({ toolCalls: [{ name: 'asker__link_account', arguments: {} }] });
    scenario.model.enqueue({ text: 'Open the link to finish.' });
    await say(scenario, 'link my account');
    await scenario.waitForBotMessage((message) => message.text === 'Open the link to finish.', 'the answer');
    const link = scenario.botMessages().find((message) => message.text.includes('https://accounts.example.com/link?state=abc'));
    expect(link?.text).toContain('The MCP server "asker" asks you to open this link');
    expect(link?.keyboard ?? []).toEqual([]);
    expect(toolResultsIn(scenario).at(-1)).toBe('link accept');
  });

  it('declines with a reason in an unattended (webhook) turn, without asking anyone', async () => {
    log = createElicitationServerLog();
    const configFolder = mkdtempSync(join(tmpdir(), 'echo-elicitation-config-'));
    const configFile = join(configFolder, 'mcp.yaml');
    writeFileSync(configFile, elicitationYaml({ log }));
    const model = await createScriptedModelServer();
    const test = await startTestApp({ configFile, environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: 'elicitation-webhook-secret', GATEWAY_PORT: '0' } });
    try {
      await waitFor(async () => ((await getPath(gatewayOf(test.app).baseUrl, '/healthz')).body as { mcp?: McpHealth }).mcp?.asker?.state === 'up', 'the asking server up');
      model.enqueue({ toolCalls: [{ name: 'asker__confirm_transfer', arguments: { amount: 7 } }] });
      model.enqueue({ text: 'Nobody was there to confirm.' });
      const answer = await postSigned({ baseUrl: gatewayOf(test.app).baseUrl, secret: 'elicitation-webhook-secret', body: { chatId: 'ops', text: 'send 7 EUR' }, query: '?wait=true' });
      expect(answer.body).toMatchObject({ reply: 'Nobody was there to confirm.' });
      const last = model.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)?.body?.messages ?? [];
      expect(last.filter((message) => message.role === 'tool').map((message) => String(message.content))).toEqual(['not transferred (decline)']);
      expect(log.entries().filter((entry) => entry.event === 'completed').map((entry) => entry.action)).toEqual(['decline']);
      await test.app.stop();
      expect(auditLines(test.dataDir)).toContainEqual(expect.objectContaining({ kind: 'elicitation-answered', server: 'asker', outcome: 'decline', reason: 'unattended turn: nobody is there to answer' }));
    } finally {
      await test.stop();
      await model.close();
      rmSync(configFolder, { recursive: true, force: true });
    }
  });

  it('sampling is off unless the server\'s config turns it on; then it goes through the agent\'s model and is audited', async () => {
    scenario = await start();
    scenario.model.enqueue({ toolCalls: [{ name: 'asker__summarise', arguments: { text: 'a long story' } }] });
    scenario.model.enqueue({ text: 'No summary.' });
    await say(scenario, 'summarise a long story');
    await scenario.waitForBotMessage((message) => message.text === 'No summary.', 'the answer without sampling');
    expect(toolResultsIn(scenario).at(-1)).toBe('no summary: Method not found');
    const offCapabilities = log.entries().find((entry) => entry.tool === 'summarise' && entry.event === 'started')?.content?.clientCapabilities;
    expect(offCapabilities).toMatchObject({ elicitation: { form: { applyDefaults: true }, url: {} } });
    expect(offCapabilities).not.toHaveProperty('sampling');
    await scenario.stop();
    log.remove();

    scenario = await start({ sampling: true });
    scenario.model.enqueue({ toolCalls: [{ name: 'asker__summarise', arguments: { text: 'a long story' } }] });
    scenario.model.enqueue({ text: 'A story, briefly.' });
    scenario.model.enqueue({ text: 'Here is the summary.' });
    await say(scenario, 'summarise a long story');
    await scenario.waitForBotMessage((message) => message.text === 'Here is the summary.', 'the answer with sampling');
    expect(toolResultsIn(scenario).at(-1)).toBe('summary: A story, briefly.');
    expect(log.entries().find((entry) => entry.tool === 'summarise' && entry.event === 'started')?.content?.clientCapabilities).toHaveProperty('sampling');
    const sampled = scenario.modelRequests().find((request) => JSON.stringify(request.body?.messages ?? []).includes('Summarise: a long story'));
    expect(sampled?.body?.tools ?? []).toEqual([]);
    // Counted for the server as the job mcp:asker (budgets.job limits it), a second behind the call like every counter.
    const usage = scenario.testApp.app.store.namespace<unknown>('usage');
    await waitFor(async () => (await usage.entries()).some(([key]) => key.endsWith('|job|mcp:asker')), 'the usage counter of job mcp:asker');
    await scenario.testApp.app.stop();
    expect(auditLines(scenario.testApp.dataDir)).toContainEqual(expect.objectContaining({ kind: 'sampling-requested', server: 'asker', outcome: 'ok' }));
  });
});
