// Issue 24: a hard budget was overshot 4x. 20 concurrent webhook turns against a 10-token global budget and a
// model that takes 1.5 s and reports 2 tokens a call: each call now reserves before it is made, so at most
// 5 calls (10 / 2) happen, and /usage shows no more than the limit plus one call's excess.
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../../fakes/start-test-app.js';
import { gatewayOf } from '../../fakes/webhook-client.js';
import { answerSlowlyWithTwoTokens, burstSecret, globalDailyUsed, modelCalls, sendBurst, writeTenTokenBudget } from './budget-burst.js';

describe('a hard budget under concurrent turns (one process)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('20 concurrent turns against a 10-token budget make at most 5 model calls; /usage stays within one call of the limit', async () => {
    const model: ScriptedModelServer = await createScriptedModelServer();
    cleanups.push(() => model.close());
    answerSlowlyWithTwoTokens(model, 1500);
    const test: TestApp = await startTestApp({ configFile: writeTenTokenBudget(), environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: burstSecret } });
    cleanups.push(() => test.stop());
    const { baseUrl } = gatewayOf(test.app);

    const answers = await sendBurst([baseUrl], 20);
    expect(answers.every((answer) => answer.status < 500)).toBe(true);
    const calls = modelCalls(model);
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(5);
    // The turns that did not get a call were told the budget is used up, not given an answer.
    const refused = answers.filter((answer) => JSON.stringify(answer.body).includes('used up today'));
    expect(refused.length).toBe(20 - calls);

    // What is left is still usable, one call at a time, up to the limit and no further.
    answerSlowlyWithTwoTokens(model, 0);
    for (let turn = 0; turn < 6; turn += 1) await sendBurst([baseUrl], 1, `after-${turn}`);
    expect(modelCalls(model)).toBe(5);
    expect(await globalDailyUsed(baseUrl)).toBeLessThanOrEqual(10 + 2);
  }, 60_000);
});
