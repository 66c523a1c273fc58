import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalsConfigYaml, createDeployTool } from '../../fakes/deploy-tool.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../../fakes/otlp-receiver.js';
import { waitFor } from '../../fakes/start-test-app.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { scenarioToken, startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

// A distinctive tool argument and an OTLP API key: neither may appear in any span.
const argumentMarker = 'staging-argument-7f3a9c';
const otlpApiKey = 'otlp-api-key-5be21d0c';

function approveButton(card: EmulatedBotMessage): string {
  const button = card.keyboard?.flat().find((candidate) => /Approve/.test(candidate.text));
  if (!button) throw new Error(`no Approve button on the card: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

function named(spans: readonly ReceivedSpan[], prefix: string): ReceivedSpan[] {
  return spans.filter((span) => span.name.startsWith(prefix));
}

describe('OpenTelemetry traces of a turn with a tool call and an approval (Telegram emulator, OTLP/HTTP receiver)', () => {
  let receiver: OtlpReceiver;
  let scenario: TelegramScenario | undefined;
  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
    await receiver.close();
  });

  async function start(): Promise<TelegramScenario> {
    const deploy = createDeployTool();
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      yaml: approvalsConfigYaml(),
      extraTools: [deploy.tool],
      environment: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'echo-traces-test', OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${otlpApiKey}` }),
    });
    return scenario;
  }

  async function askForDeploy(current: TelegramScenario): Promise<EmulatedBotMessage> {
    current.model.enqueue({ toolCalls: [{ name: 'deploy', arguments: { target: argumentMarker } }] });
    const client = current.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('deploy it please'));
    return current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
  }

  async function press(current: TelegramScenario, card: EmulatedBotMessage): Promise<void> {
    current.model.enqueue({ text: 'Deployed.' });
    const client = current.client({ userId: 1001 });
    await client.sendCallback(client.makeCallbackQuery(approveButton(card), { message: { message_id: card.messageId } }));
    await current.waitForBotMessage((message) => message.text === 'Deployed.', 'the resumed answer');
  }

  /** Waits until the resumed turn's spans arrived: two invoke_agent spans, the wait, two execute_tool and two chat spans. */
  async function allSpans(): Promise<ReceivedSpan[]> {
    return waitFor(
      () =>
        named(receiver.spans, 'invoke_agent').length >= 2 && named(receiver.spans, 'chat ').length >= 2 && named(receiver.spans, 'execute_tool').length >= 2 && named(receiver.spans, 'await_approval').length >= 1
          ? [...receiver.spans]
          : undefined,
      'the exported spans',
      20_000,
    );
  }

  function expectOneTrace(spans: readonly ReceivedSpan[]) {
    const [first, resumed] = [...named(spans, 'invoke_agent')].sort((a, b) => Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)));
    if (first === undefined || resumed === undefined) throw new Error(`two invoke_agent spans expected: ${spans.map((span) => span.name).join(', ')}`);
    // The first turn is the root; every other span (model calls, tool calls, the wait, the resumed turn) is in its trace.
    expect(first.parentSpanId).toBeUndefined();
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([first.traceId]));
    expect(resumed.parentSpanId).toBe(first.spanId);
    expect(resumed.attributes['echo.resumed']).toBe(true);
    // The same statuses the turn-finished listeners (cron run records, webhook waits) get.
    expect(first.attributes['echo.turn.status']).toBe('suspended');
    expect(resumed.attributes['echo.turn.status']).toBe('completed');
    expect(first.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'echo.channel': 'telegram', 'echo.origin': 'user', 'echo.unattended': false, 'echo.user.id': '1001' });
    expect(first.resource['service.name']).toBe('echo-traces-test');

    const wait = named(spans, 'await_approval deploy')[0];
    expect(wait?.parentSpanId).toBe(first.spanId);
    expect(wait?.attributes).toMatchObject({ 'gen_ai.tool.name': 'deploy', 'echo.approval.status': 'approved', 'echo.approval.decided_by': expect.stringContaining('1001') });

    const tools = named(spans, 'execute_tool deploy');
    expect(tools.map((span) => span.attributes['echo.tool.outcome']).sort()).toEqual(['approval-required', 'ok']);
    expect(tools.find((span) => span.attributes['echo.tool.outcome'] === 'approval-required')?.parentSpanId).toBe(first.spanId);
    expect(tools.find((span) => span.attributes['echo.tool.outcome'] === 'ok')?.parentSpanId).toBe(resumed.spanId);

    const chats = named(spans, 'chat ');
    expect(chats.map((span) => span.parentSpanId).sort()).toEqual([first.spanId, resumed.spanId].sort());
    for (const chat of chats) {
      expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai' });
      expect(typeof chat.attributes['gen_ai.usage.input_tokens']).toBe('number');
      expect(typeof chat.attributes['gen_ai.usage.output_tokens']).toBe('number');
    }

    // Secrets and arguments never reach an attribute: the bot token (config), the OTLP key (config), the tool argument.
    const recorded = JSON.stringify(spans.map((span) => [span.name, span.attributes, span.resource]));
    for (const secret of [scenarioToken, scenarioToken.split(':')[1] ?? scenarioToken, otlpApiKey, argumentMarker]) expect(recorded).not.toContain(secret);
    // The key did reach the exporter's requests, so the check above looks where it could have leaked.
    expect(receiver.requestHeaders.some((headers) => headers['x-api-key'] === otlpApiKey)).toBe(true);
    expect(receiver.rejected).toEqual([]);
  }

  it('yields invoke_agent, chat, execute_tool and the approval wait in one trace', async () => {
    const current = await start();
    const card = await askForDeploy(current);
    await press(current, card);
    expectOneTrace(await allSpans());
  });

  it('continues the same trace when the approval is decided after a restart (the resumed turn is a child of the stored span)', async () => {
    const current = await start();
    const card = await askForDeploy(current);
    await current.restartApp();
    await press(current, card);
    const spans = await allSpans();
    // The first turn's spans were exported when its app stopped, the resumed ones by the new app: still one trace.
    expectOneTrace(spans);
  });

  it('puts a sub-task in its parent\'s trace: its invoke_agent span is the parent turn\'s child, its tool spans carry the chain', async () => {
    const deploy = createDeployTool();
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      yaml: 'tools:\n  alsoAllow: [deploy, delegate]\napprovals:\n  explain: false\n',
      extraTools: [deploy.tool],
      environment: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    });
    scenario.model.enqueue(
      { toolCalls: [{ name: 'delegate', arguments: { name: 'ship', instructions: 'Deploy to staging.', tools: ['deploy'] } }] },
      { toolCalls: [{ name: 'deploy', arguments: { target: 'staging' } }] },
      { text: 'shipped' },
      { text: 'All shipped.' },
    );
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('ship it'));
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the sub-task\'s approval card');
    await client.sendCallback(client.makeCallbackQuery(approveButton(card), { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.text === 'All shipped.', 'the parent answer');
    const spans = await waitFor(() => (named(receiver.spans, 'invoke_agent').length >= 4 && named(receiver.spans, 'execute_tool deploy').length >= 2 ? [...receiver.spans] : undefined), 'the exported spans', 20_000);

    const agents = named(spans, 'invoke_agent');
    const root = agents.find((span) => span.parentSpanId === undefined);
    const child = agents.find((span) => span.attributes['echo.delegation.chain'] === 'ship' && span.attributes['echo.resumed'] === false);
    expect(root).toBeDefined();
    expect(child?.parentSpanId).toBe(root?.spanId);
    expect(child?.attributes['echo.delegation.parent_execution_id']).toEqual(expect.any(String));
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([root?.traceId]));
    for (const tool of named(spans, 'execute_tool deploy')) expect(tool.attributes).toMatchObject({ 'echo.delegation.chain': 'ship', 'echo.delegation.agent_id': 'echo-agent' });
    expect(deploy.runs).toEqual(['staging']);
  });

  it('continues the trace of a turn a budget card held, once Continue is pressed', async () => {
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      yaml: 'approvals:\n  explain: false\nbudgets:\n  softLimit: 0.5\n  chat: { daily: { tokens: 1000 } }\n',
      environment: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    });
    const client = scenario.client({ userId: 1001 });
    scenario.model.enqueue({ text: 'first answer', usage: { input: 550, output: 50 } });
    await client.sendMessage(client.makeMessage('first'));
    await scenario.waitForBotMessage((message) => message.text === 'first answer', 'the first answer');
    await client.sendMessage(client.makeMessage('second'));
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the budget card');
    scenario.model.enqueue({ text: 'second answer', usage: { input: 10, output: 10 } });
    const continueButton = card.keyboard?.flat().find((button) => /Continue/.test(button.text))?.callback_data ?? '';
    await client.sendCallback(client.makeCallbackQuery(continueButton, { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.text === 'second answer', 'the held message answered');

    const spans = await waitFor(() => (named(receiver.spans, 'invoke_agent').length >= 3 && named(receiver.spans, 'chat ').length >= 2 ? [...receiver.spans] : undefined), 'the exported spans', 20_000);
    const [first, held, continued] = [...named(spans, 'invoke_agent')].sort((a, b) => Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)));
    expect(held?.traceId).not.toBe(first?.traceId);
    expect(continued?.traceId).toBe(held?.traceId);
    expect(continued?.parentSpanId).toBe(held?.spanId);
    expect(continued?.attributes['echo.turn.status']).toBe('completed');
    expect(named(spans, 'chat ').find((span) => span.traceId === held?.traceId)?.parentSpanId).toBe(continued?.spanId);
  });
});
