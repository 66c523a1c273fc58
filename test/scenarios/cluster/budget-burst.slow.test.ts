// Issue 24, cluster mode: three instances on one PostgreSQL, 20 concurrent webhook turns spread over them,
// a 10-token global budget and a model that takes 1.5 s and reports 2 tokens a call. Each reservation is one SQL
// statement over every budget it touches, so the instances cannot pass one check together: at most 5 calls.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, isPostgresUp } from '../../contracts/scratch-postgres.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../../fakes/start-test-app.js';
import { gatewayOf } from '../../fakes/webhook-client.js';
import { answerSlowlyWithTwoTokens, burstSecret, globalDailyUsed, modelCalls, sendBurst, writeTenTokenBudget } from '../budgets/budget-burst.js';

const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the cluster budget scenario is skipped.');

describe.skipIf(!postgresUp)('a hard budget under concurrent turns (three instances, one PostgreSQL)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 60_000);

  it('20 concurrent turns spread over 3 instances make at most 5 model calls', async () => {
    const database = await createScratchDatabase();
    cleanups.push(() => database.drop());
    const model: ScriptedModelServer = await createScriptedModelServer();
    cleanups.push(() => model.close());
    answerSlowlyWithTwoTokens(model, 1500);
    const configFile = writeTenTokenBudget();
    const environment = { ECHO_STORAGE_URL: database.url, OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: burstSecret };
    const instances: TestApp[] = [];
    for (let index = 0; index < 3; index += 1) {
      const instance = await startTestApp({ configFile, environment });
      cleanups.push(() => instance.stop());
      instances.push(instance);
    }
    const baseUrls = instances.map((instance) => gatewayOf(instance.app).baseUrl);

    const answers = await sendBurst(baseUrls, 20);
    expect(answers.every((answer) => answer.status < 500)).toBe(true);
    const calls = modelCalls(model);
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(5);

    // The reservations were shared through PostgreSQL (not each instance's own): the global budget's row holds
    // nothing once every call settled, and counts what the calls used.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    let row: { spent: number; held: number } | undefined;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const result = await client.query<{ spent: number; held: number }>("SELECT spent, held FROM echo_budget_spend WHERE budget_key LIKE '%|global|all|tokens'");
      row = result.rows[0];
      if (row !== undefined && row.held === 0 && row.spent === calls * 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(row).toEqual({ spent: calls * 2, held: 0 });

    // Once the counters are written, any instance's /usage shows no more than the limit plus one call's excess.
    await Promise.all(instances.map((instance) => instance.app.budgets.ledger.flush()));
    expect(await globalDailyUsed(baseUrls[2] ?? '')).toBeLessThanOrEqual(10 + 2);
  }, 90_000);
});
