// ?wait=true says what happened to the turn: a model that fails, a budget used up and the per-turn ceiling answer
// with an error status and code (the sentence the chat got kept as `reply`), a normal turn with 200. A store that
// goes down mid-turn is in test/faults/redis-stopped.slow.test.ts; the same statuses across instances in
// test/scenarios/cluster/webhook-wait.slow.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../../fakes/start-test-app.js';
import { gatewayOf, postSigned } from '../../fakes/webhook-client.js';

const secret = 'failed-turns-secret';
let model: ScriptedModelServer;
let folder: string;
const running: TestApp[] = [];

beforeAll(async () => {
  model = await createScriptedModelServer();
  folder = mkdtempSync(join(tmpdir(), 'echo-webhook-failed-'));
});
afterAll(async () => {
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});
afterEach(async () => {
  model.setFallback({});
  while (running.length > 0) await running.pop()?.stop();
});

async function startWith(yaml: string): Promise<(text: string, headers?: Record<string, string>) => ReturnType<typeof postSigned>> {
  const configFile = join(folder, `config-${running.length}-${Date.now()}.yaml`);
  writeFileSync(configFile, yaml);
  const test = await startTestApp({ configFile, environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, GATEWAY_PORT: '0' } });
  running.push(test);
  const { baseUrl } = gatewayOf(test.app);
  return (text, headers) => postSigned({ baseUrl, secret, body: { chatId: 'failed-turns', senderId: 'erp', text }, query: '?wait=true', headers });
}

describe('?wait=true answers say what happened to the turn', () => {
  it('200 with the reply when the turn answers', async () => {
    const send = await startWith('# defaults\n');
    model.enqueue({ text: 'all good' });
    const answer = await send('hello');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ runId: expect.any(String), reply: 'all good' });
  });

  it('502 model-unavailable when the model fails, the sentence kept as reply; a replay with the key gets the same', async () => {
    const send = await startWith('# defaults\n');
    model.setFallback({ status: 401, errorMessage: 'invalid api key' });
    const answer = await send('are you there?', { 'idempotency-key': 'model-down-1' });
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual({
      error: { code: 'model-unavailable', message: expect.any(String) },
      runId: expect.any(String),
      reply: 'I could not reach the model (the API key was refused). Please try again in a moment.',
    });
    expect(answer.headers.get('retry-after')).toBeNull();
    const replay = await send('are you there?', { 'idempotency-key': 'model-down-1' });
    expect(replay.status).toBe(502);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(answer.body);
  });

  it('429 budget-exhausted with Retry-After until the budget resets, and resetsAt', async () => {
    const send = await startWith('budgets:\n  global: { daily: { tokens: 10 } }\n');
    const modelCalls = () => model.requests.filter((request) => request.path === '/v1/chat/completions').length;
    const callsBefore = modelCalls();
    model.enqueue({ text: 'first', usage: { input: 10, output: 10 } });
    expect(await send('one')).toMatchObject({ status: 200, body: { reply: 'first' } });
    const before = Date.now();
    const refused = await send('two');
    expect(refused.status).toBe(429);
    const body = refused.body as { error: { code: string }; reply: string; resetsAt: string };
    expect(body).toMatchObject({ error: { code: 'budget-exhausted' }, runId: expect.any(String), reply: expect.stringMatching(/^This bot as a whole has used up today's budget \(20 of 10 tokens\)/) });
    const untilReset = (Date.parse(body.resetsAt) - before) / 1000;
    expect(untilReset).toBeGreaterThan(0);
    expect(untilReset).toBeLessThanOrEqual(24 * 60 * 60);
    // Seconds from the answer to the reset: within a few seconds of what the test computes from resetsAt.
    expect(Math.abs(Number(refused.headers.get('retry-after')) - untilReset)).toBeLessThan(5);
    expect(modelCalls() - callsBefore).toBe(1);
  });

  it('429 budget-exhausted without Retry-After when the per-turn ceiling stops the turn', async () => {
    const send = await startWith('budgets:\n  perTurn: { modelCalls: 1 }\n');
    model.setFallback({ toolCalls: [{ name: 'todo', arguments: { action: 'list' } }] });
    const stopped = await send('loop forever');
    expect(stopped.status).toBe(429);
    expect(stopped.body).toMatchObject({ error: { code: 'budget-exhausted' }, reply: 'I stopped this request: it reached the limit of 1 model calls per turn.' });
    expect(stopped.headers.get('retry-after')).toBeNull();
  });
});
