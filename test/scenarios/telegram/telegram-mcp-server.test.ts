import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const serveKey = 'mcp-serve-test-key-0123456789abcdef';
const serveYaml = [
  'mcp:',
  '  serve:',
  '    enabled: true',
  '    keys:',
  '      - name: claude-code',
  `        key: ${serveKey}`,
  "        user: '1001'",
  '        client: Claude Code on build-01',
  '        chat:',
  '          channel: telegram',
  "          chatId: '1001'",
  '',
].join('\n');

type ToolOutcome = { readonly status: string; readonly [field: string]: unknown };

describe('echo-agent as an MCP server, driven by the official MCP client, answered in the Telegram emulator', () => {
  let scenario: TelegramScenario | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    await scenario?.stop();
    scenario = undefined;
  });

  const endpoint = () => {
    const address = scenario?.testApp.app.gateway?.address();
    if (!address) throw new Error('the gateway is not listening');
    return new URL(`http://127.0.0.1:${address.port}/mcp`);
  };
  const connect = async (key = serveKey): Promise<Client> => {
    const client = new Client({ name: 'scenario-host', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolOutcome> => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text?: string }[])[0]?.text ?? '{}';
    return JSON.parse(text) as ToolOutcome;
  };
  const start = () => startTelegramScenario({ allowFrom: '1001,1002', approvers: '1001', yaml: serveYaml });

  it('lists its four tools; ask_person shows the choices as buttons, and the press is the tool result', async () => {
    scenario = await start();
    const client = await connect();
    expect(scenario.testApp.app.startupLines).toContain('mcp server: POST /mcp on the gateway, 1 key(s): claude-code → telegram:1001');
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['ask_person', 'list_pending', 'notify', 'request_approval']);

    const asking = call(client, 'ask_person', { id: 'which-db', question: 'Which database should the migration run on?', choices: ['staging', 'production'] });
    const card = await scenario.waitForBotMessage((message) => message.text.includes('Which database'), 'the question in the chat');
    expect(card.text).toContain('Claude Code on build-01 (MCP key claude-code)');
    expect(card.keyboard?.map((row) => row.map((button) => button.text))).toEqual([['staging'], ['production']]);
    const pending = await call(await connect(), 'list_pending', {});
    expect(pending).toMatchObject({ status: 'ok', pending: [{ id: 'which-db', kind: 'question' }] });

    const person = scenario.client({ userId: 1001 });
    await person.sendCallback(person.makeCallbackQuery(card.keyboard?.[0]?.[0]?.callback_data ?? '', { message: { message_id: card.messageId } }));
    expect(await asking).toMatchObject({ status: 'answered', id: 'which-db', answer: 'staging' });
    expect(await call(client, 'list_pending', {})).toMatchObject({ status: 'ok', pending: [] });
    // Asked again with the same id: the recorded answer, no second question in the chat.
    expect(await call(client, 'ask_person', { id: 'which-db', question: 'Which database should the migration run on?', choices: ['staging', 'production'] })).toMatchObject({ status: 'answered', answer: 'staging' });
    expect(scenario.botMessages(1001).filter((message) => message.text.includes('Which database'))).toHaveLength(1);
    // No model call was made for any of it.
    expect(scenario.modelRequests()).toEqual([]);
  });

  it('ask_person is answered by the next message in the chat: typed text, or the number of a choice', async () => {
    scenario = await start();
    const client = await connect();
    const asking = call(client, 'ask_person', { question: 'What should the release be called?' });
    await scenario.waitForBotMessage((message) => message.text.includes('What should the release be called?'), 'the question');
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('Aurora'));
    expect(await asking).toMatchObject({ status: 'answered', answer: 'Aurora' });
    // With choices, a reply with a choice's number picks it (how channels without buttons answer).
    const picking = call(client, 'ask_person', { question: 'Which region?', choices: ['eu-west', 'us-east'] });
    await scenario.waitForBotMessage((message) => message.text.includes('Which region?'), 'the second question');
    await person.sendMessage(person.makeMessage('2'));
    expect(await picking).toMatchObject({ status: 'answered', answer: 'us-east' });
    expect(scenario.modelRequests()).toEqual([]);
  });

  it('request_approval: a non-approver is refused, the approver approves, and the result names the approver', async () => {
    scenario = await start();
    const client = await connect();
    const requesting = call(client, 'request_approval', { id: 'deploy-412', action: 'Deploy build 412 to production', details: 'Rollback: build 411.', risk: 'dangerous' });
    const card = await scenario.waitForBotMessage((message) => message.text.includes('Deploy build 412 to production'), 'the approval card');
    expect(card.text).toContain('Claude Code on build-01 (MCP key claude-code)');
    const buttons = card.keyboard?.flat() ?? [];
    expect(buttons.map((button) => button.text)).toEqual(['Approve', 'Deny']);
    const approve = buttons.find((button) => button.callback_data.endsWith(':o'))?.callback_data ?? '';

    const stranger = scenario.client({ userId: 1002, chatId: 1001 });
    await stranger.sendCallback(stranger.makeCallbackQuery(approve, { message: { message_id: card.messageId } }));
    const refusal = await waitFor(() => scenario?.proxy.callsOf('answerCallbackQuery').find((entry) => entry.body.show_alert === true), 'the refusal');
    expect(refusal.body.text).toBe('Only approvers can decide this.');
    expect(await call(await connect(), 'request_approval', { id: 'deploy-412', action: 'Deploy build 412 to production', waitSeconds: 0 })).toMatchObject({ status: 'pending', id: 'deploy-412' });

    const approver = scenario.client({ userId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(approve, { message: { message_id: card.messageId } }));
    const outcome = await requesting;
    expect(outcome).toMatchObject({ status: 'approved', id: 'deploy-412' });
    expect(String(outcome.decidedBy)).toContain('1001');
    await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Approved'), 'the card edited into its outcome');
    // One record in the same approval service as the agent's own cards, raised by the key's user.
    const records = await scenario.testApp.app.store.namespace<{ requester: { id: string; displayName: string } }>('approvals').entries();
    expect(records.map(([, record]) => record.requester)).toEqual([{ id: '1001', displayName: 'Claude Code on build-01 (MCP key claude-code)' }]);
  });

  it('notify reaches the chat; a wrong or missing key gets 401 and a foreign Origin 403 before any MCP processing', async () => {
    scenario = await start();
    expect(await call(await connect(), 'notify', { text: 'Build 412 is **green**.' })).toEqual({ status: 'sent' });
    await scenario.waitForBotMessage((message) => message.text.includes('Build 412 is <b>green</b>.'), 'the notification');

    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    for (const authorization of ['Bearer wrong-key-wrong-key-wrong-key-000', undefined]) {
      const response = await fetch(endpoint(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
    }
    await expect(connect('wrong-key-wrong-key-wrong-key-000')).rejects.toThrow();

    // DNS rebinding: a browser page on another name that resolves here is refused by its Origin, even with the key.
    const rebound = await fetch(endpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${serveKey}`, origin: 'http://evil.example.com' },
      body: JSON.stringify(initialize),
    });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ error: { code: 'origin-not-allowed' } });
  });

  it("a used-up budget of the key's person refuses new questions and cards, with the reset", async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml: `${serveYaml}budgets:\n  user: { daily: { tokens: 30 } }\n` });
    scenario.model.enqueue({ text: 'Hello.', usage: { input: 30, output: 10 } });
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('hi'));
    await scenario.waitForBotMessage((message) => message.text === 'Hello.', 'the answer that uses the budget');
    const client = await connect();
    const refused = await client.callTool({ name: 'ask_person', arguments: { question: 'Ship?', waitSeconds: 0 } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as { text: string }[])[0]?.text ?? '{}')).toMatchObject({ status: 'refused', reason: expect.stringContaining('daily user budget') });
    expect(await call(client, 'request_approval', { action: 'Deploy', waitSeconds: 0 })).toMatchObject({ status: 'refused' });
    expect(scenario.botMessages(1001).filter((message) => message.text.includes('Ship?'))).toEqual([]);
  });

  it('the question survives a restart: the card is pressed in the new process, and polling with the same id gets the answer', async () => {
    scenario = await start();
    const first = await connect();
    expect(await call(first, 'ask_person', { id: 'ship-it', question: 'Ship the hotfix now?', choices: ['yes', 'no'], waitSeconds: 0 })).toMatchObject({ status: 'pending', id: 'ship-it' });
    const card = await scenario.waitForBotMessage((message) => message.text.includes('Ship the hotfix now?'), 'the question');
    await first.close();

    await scenario.restartApp();
    const person = scenario.client({ userId: 1001 });
    await person.sendCallback(person.makeCallbackQuery(card.keyboard?.[0]?.[0]?.callback_data ?? '', { message: { message_id: card.messageId } }));
    const again = await connect();
    expect(await call(again, 'ask_person', { id: 'ship-it', question: 'Ship the hotfix now?', choices: ['yes', 'no'], waitSeconds: 10 })).toMatchObject({ status: 'answered', answer: 'yes' });
    expect(scenario.botMessages(1001).filter((message) => message.text.includes('Ship the hotfix now?'))).toHaveLength(1);
  });
});
