import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { gatewayOf, postSigned } from '../../fakes/webhook-client.js';
import { cronOf, waitForFinishedRun } from '../cron/cron-test-helpers.js';

describe('who a turn is billed to', () => {
  const cleanups: Array<() => Promise<void>> = [];
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('a webhook caller is bound by the per-user budget of its client (channels.webhook.clientName, default client), whatever senderId and chatId it sends', async () => {
    const model = await createScriptedModelServer();
    cleanups.push(() => model.close());
    model.setFallback({ text: 'answered', usage: { input: 30, output: 10 } });
    const configFile = join(mkdtempSync(join(tmpdir(), 'echo-budget-billing-')), 'budgets.yaml');
    writeFileSync(configFile, 'budgets:\n  softLimit: 1\n  user: { daily: { tokens: 30 } }\n');
    const secret = 'budget-billing-secret';
    const test = await startTestApp({ configFile, environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret } });
    cleanups.push(() => test.stop());
    const { baseUrl } = gatewayOf(test.app);
    const send = (id: string) => postSigned({ baseUrl, secret, body: { chatId: `chat-${id}`, senderId: `sender-${id}`, text: `from ${id}` }, query: '?wait=true' });

    expect((await send('a')).body).toMatchObject({ reply: 'answered' });
    // Another sender and another chat: still the same client, whose 30 tokens are used up (40 of 30).
    const refused = await send('b');
    expect(JSON.stringify(refused.body)).toMatch(/You have used up today's budget \(40 of 30 tokens\)/);
    expect(model.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(1);
    const { day } = test.app.budgets.ledger.periods();
    expect(await test.app.budgets.ledger.totals({ period: day, dimension: 'user', id: 'webhook:client' })).toMatchObject({ calls: 1, inputTokens: 30, outputTokens: 10 });
    expect(await test.app.budgets.ledger.totals({ period: day, dimension: 'user', id: 'webhook:sender-a' })).toMatchObject({ calls: 0 });
  });

  it('a scheduled turn counts against its creator’s user budget as well as the job’s', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'budgets:\n  softLimit: 1\n  user: { daily: { tokens: 30 } }\n' });
    const { app } = scenario.testApp;
    const created = await cronOf(app).scheduler.create({ schedule: '0 3 * * *', prompt: 'Summarise the day.', target: { channel: 'telegram', chatId: '1001' }, createdBy: '1001' });
    if (!created.ok) throw new Error(created.error);
    scenario.model.enqueue({ text: 'digest', usage: { input: 30, output: 10 } });
    expect((await cronOf(app).runNow(created.job.id)).ok).toBe(true);
    expect((await waitForFinishedRun(app, created.job.id, 'the scheduled run')).lastRun).toMatchObject({ status: 'succeeded' });
    const { day } = app.budgets.ledger.periods();
    expect(await app.budgets.ledger.totals({ period: day, dimension: 'job', id: created.job.id })).toMatchObject({ calls: 1 });
    expect(await app.budgets.ledger.totals({ period: day, dimension: 'user', id: 'telegram:1001' })).toMatchObject({ calls: 1 });

    // The person's own budget was spent by the job they scheduled: their next message is not sent to the model.
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('hello'));
    await scenario.waitForBotMessage((message) => message.text.startsWith("You have used up today's budget (40 of 30 tokens)"), 'the hard-limit sentence');
    expect(scenario.modelRequests()).toHaveLength(1);
  });
});
