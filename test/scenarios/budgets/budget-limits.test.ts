import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../../src/registry/audit-log.js';
import { createScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { gatewayOf, postSigned } from '../../fakes/webhook-client.js';
import { cronOf, waitForFinishedRun } from '../cron/cron-test-helpers.js';

describe('hard limits, the per-turn ceiling and unattended runs', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('stops before the model is called once the chat used its budget, says when it resets; an approver raises it with /budget, audited', async () => {
    const yaml = 'channels:\n  telegram:\n    groups: "-500"\nbudgets:\n  softLimit: 1\n  chat: { daily: { tokens: 100 } }\n';
    scenario = await startTelegramScenario({ allowFrom: '1001,2002', approvers: '1001', yaml });
    const member = scenario.client({ userId: 2002, chatId: -500, type: 'group' });
    const owner = scenario.client({ userId: 1001, chatId: -500, type: 'group' });
    scenario.model.enqueue({ text: 'one', usage: { input: 120, output: 30 } });
    await member.sendMessage(member.makeMessage('@TestNameBot first'));
    await scenario.waitForBotMessage((message) => message.text === 'one', 'the first answer');

    await member.sendMessage(member.makeMessage('@TestNameBot second'));
    const stopped = await scenario.waitForBotMessage((message) => message.text.startsWith('This chat has used up'), 'the hard-limit sentence');
    expect(stopped.text).toMatch(/^This chat has used up today's budget \(150 of 100 tokens\), so I stopped before asking the model; it resets \d{4}-\d{2}-\d{2} 00:00 \(UTC\)\.$/);
    expect(scenario.modelRequests()).toHaveLength(1);

    await member.sendMessage(member.makeMessage('/budget raise chat daily tokens 1000'));
    await scenario.waitForBotMessage((message) => message.text === 'Only approvers can raise a budget.', 'the refusal to a member');
    await owner.sendMessage(owner.makeMessage('/budget raise chat daily tokens 1000'));
    await scenario.waitForBotMessage((message) => message.text.startsWith('Raised the daily budget of chat telegram:-500 to 1,000 tokens'), 'the raise');

    scenario.model.enqueue({ text: 'three' });
    await member.sendMessage(member.makeMessage('@TestNameBot third'));
    await scenario.waitForBotMessage((message) => message.text === 'three', 'the answer after the raise');
    await owner.sendMessage(owner.makeMessage('/usage'));
    const usage = await scenario.waitForBotMessage((message) => message.text.startsWith('Usage of this chat'), 'the /usage answer');
    expect(usage.text).toContain('Today: 170 tokens · 2 model calls');
    expect(usage.text).toContain('• chat daily: 170 of 1,000 tokens');
    expect(usage.text).toContain('• user telegram:2002: 170 tokens');

    await scenario.testApp.app.stop();
    const audit = await createAuditLog({ directory: join(scenario.testApp.dataDir, 'audit') }).recent(50);
    expect(audit.filter((entry) => entry.kind === 'budget-raised')).toEqual([expect.objectContaining({ userId: '1001', outcome: 'raised:1000', arguments: expect.objectContaining({ scope: 'chat', id: 'telegram:-500', unit: 'tokens' }) })]);
  });

  it('stops a model that keeps calling tools at the per-turn ceiling of model calls', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'budgets:\n  perTurn: { modelCalls: 3 }\n' });
    let count = 0;
    scenario.model.setFallback(() => {
      count += 1;
      return { toolCalls: [{ name: 'todo', arguments: { action: 'add', text: `item ${count}` } }] };
    });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('keep going'));
    await scenario.waitForBotMessage((message) => message.text === 'I stopped this request: it reached the limit of 3 model calls per turn.', 'the ceiling sentence');
    expect(scenario.modelRequests()).toHaveLength(3);
  });

  it('stops a tool loop at the per-turn ceiling of tokens, counted from what the model reported', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'budgets:\n  perTurn: { tokens: 50 }\n' });
    let count = 0;
    scenario.model.setFallback(() => {
      count += 1;
      return { toolCalls: [{ name: 'todo', arguments: { action: 'add', text: `item ${count}` } }], usage: { input: 15, cachedInput: 5, output: 10 } };
    });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('keep going'));
    await scenario.waitForBotMessage((message) => message.text === 'I stopped this request: it reached the limit of 50 tokens per turn.', 'the ceiling sentence');
    // 30 tokens after one call, 60 after two: the third call is not made.
    expect(scenario.modelRequests()).toHaveLength(2);
  });

  it('skips a scheduled job over its budget without a card or a model call, and its run record says so', async () => {
    const yaml = `
budgets:
  job: { daily: { tokens: 50 } }
cron:
  jobs:
    - id: digest
      schedule: "0 3 * * *"
      prompt: Summarise the day.
      target: telegram:1001
`;
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml });
    const { app } = scenario.testApp;
    scenario.model.enqueue({ text: 'digest one', usage: { input: 40, output: 20 } });
    expect((await cronOf(app).runNow('digest')).ok).toBe(true);
    expect((await waitForFinishedRun(app, 'digest', 'the first run')).lastRun).toMatchObject({ status: 'succeeded' });

    expect((await cronOf(app).runNow('digest')).ok).toBe(true);
    const skipped = await waitForFinishedRun(app, 'digest', 'the second run');
    expect(skipped.lastRun?.status).toBe('skipped');
    expect(skipped.lastRun?.error).toMatch(/^budget: Scheduled job digest has used up today's budget \(60 of 50 tokens\)/);
    expect(scenario.modelRequests()).toHaveLength(1);
    expect(scenario.botMessages().filter((message) => (message.keyboard?.length ?? 0) > 0)).toEqual([]);
  });

  it('never shows a webhook turn a card: past the soft limit it runs, at the hard limit it answers the caller with the sentence', async () => {
    const model = await createScriptedModelServer();
    const folder = mkdtempSync(join(tmpdir(), 'echo-budget-webhook-'));
    const configFile = join(folder, 'budgets.yaml');
    writeFileSync(configFile, 'budgets:\n  softLimit: 0.5\n  global: { daily: { tokens: 30 } }\n');
    const secret = 'budget-webhook-secret';
    const test = await startTestApp({ configFile, environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, GATEWAY_PORT: '0' } });
    try {
      const { baseUrl } = gatewayOf(test.app);
      const send = (text: string) => postSigned({ baseUrl, secret, body: { chatId: 'orders', senderId: 'erp', text }, query: '?wait=true' });
      model.enqueue({ text: 'first', usage: { input: 10, output: 10 } }, { text: 'second', usage: { input: 10, output: 10 } });
      expect((await send('one')).body).toMatchObject({ reply: 'first' });
      expect((await send('two')).body).toMatchObject({ reply: 'second' });
      const third = await send('three');
      expect(third.body).toMatchObject({ reply: expect.stringMatching(/^This bot as a whole has used up today's budget \(40 of 30 tokens\)/) });
      expect(model.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);
      expect(await test.app.store.namespace('approvals-index').get('pending')).toBeUndefined();
    } finally {
      await test.stop();
      await model.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
