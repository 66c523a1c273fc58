import { afterEach, describe, expect, it } from 'vitest';
import type { UsageTotals } from '../../../src/budgets/usage-totals.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { getPath, gatewayOf } from '../../fakes/webhook-client.js';
import { cronOf, waitForFinishedRun } from '../cron/cron-test-helpers.js';

// The default model name in config/default.yaml is gpt-4o-mini: priced here so costs can be checked to the cent.
const yaml = `
approvals:
  explain: false
prices:
  gpt-4o-mini: { input: 1, cachedInput: 0.5, output: 4 }
cron:
  jobs:
    - id: nightly
      schedule: "0 3 * * *"
      prompt: Summarise the day.
      target: telegram:1001
`;

const tokens = (totals: UsageTotals) => totals.inputTokens + totals.cachedInputTokens + totals.outputTokens;

describe('usage accounting', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('counts what the model reported per user, chat, job, model and overall, today and this month, with costs from the price table, in the store and /metrics', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,2002', yaml });
    const { app } = scenario.testApp;

    scenario.model.enqueue({ text: 'A', usage: { input: 100, cachedInput: 20, output: 7 } });
    const first = scenario.client({ userId: 1001 });
    await first.sendMessage(first.makeMessage('first question'));
    await scenario.waitForBotMessage((message) => message.text === 'A', 'the first answer');

    scenario.model.enqueue(
      { toolCalls: [{ name: 'todo', arguments: { action: 'add', text: 'milk' } }], usage: { input: 50, output: 5 } },
      { text: 'B', usage: { input: 60, output: 6 } },
    );
    const second = scenario.client({ userId: 2002 });
    await second.sendMessage(second.makeMessage('add milk'));
    await scenario.waitForBotMessage((message) => message.text === 'B', 'the second answer');

    scenario.model.enqueue({ text: 'C', usage: { input: 30, output: 3 } });
    expect((await cronOf(app).runNow('nightly')).ok).toBe(true);
    await waitForFinishedRun(app, 'nightly', 'the nightly run');

    const { day, month } = app.budgets.ledger.periods();
    const totals = (period: string, dimension: 'chat' | 'user' | 'job' | 'global' | 'model' | 'origin', id: string) => app.budgets.ledger.totals({ period, dimension, id });
    for (const period of [day, month]) {
      expect(tokens(await totals(period, 'user', 'telegram:1001'))).toBe(127);
      expect(tokens(await totals(period, 'user', 'telegram:2002'))).toBe(121);
      // The job's turn answers in chat 1001: it counts for that chat and for the job, not for a person.
      expect(tokens(await totals(period, 'chat', 'telegram:1001'))).toBe(127 + 33);
      expect(tokens(await totals(period, 'chat', 'telegram:2002'))).toBe(121);
      expect(tokens(await totals(period, 'job', 'nightly'))).toBe(33);
      expect(tokens(await totals(period, 'origin', 'schedule'))).toBe(33);
      expect(await totals(period, 'global', 'all')).toMatchObject({ calls: 4, inputTokens: 240, cachedInputTokens: 20, outputTokens: 21, unpricedCalls: 0 });
      expect(tokens(await totals(period, 'model', 'gpt-4o-mini'))).toBe(281);
    }
    // 240 input at 1, 20 cached at 0.5 and 21 output at 4 per million.
    expect((await totals(day, 'global', 'all')).cost).toBeCloseTo((240 * 1 + 20 * 0.5 + 21 * 4) / 1_000_000, 12);

    await app.budgets.ledger.flush();
    const stored = await app.store.namespace<UsageTotals>('usage').get(`${day}|user|telegram:2002`);
    expect(stored).toMatchObject({ calls: 2, inputTokens: 110, outputTokens: 11 });

    const metrics = await getPath(gatewayOf(app).baseUrl, '/metrics');
    expect(metrics.text).toMatch(/echo_model_tokens_total\{model="gpt-4o-mini",channel="telegram",origin="user",kind="input"\} 210/);
    expect(metrics.text).toMatch(/echo_model_tokens_total\{model="gpt-4o-mini",channel="telegram",origin="schedule",kind="output"\} 3/);
    expect(metrics.text).toMatch(/echo_model_calls_total\{model="gpt-4o-mini",channel="telegram",origin="user"\} 3/);
    expect(metrics.text).toMatch(/echo_model_cost_total\{model="gpt-4o-mini",channel="telegram",origin="schedule"\} 0\.000042/);
    await waitFor(() => scenario?.modelRequests().length === 4 || undefined, 'four model calls');
  });
});
