// Cluster mode, POST /v1/messages?wait=true: the request is held by the instance it reached, the turn runs on the
// other instance (the first has its one turn slot busy), and the waiting request still gets the answer, or the status
// of a turn that failed there.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, isPostgresUp } from '../../contracts/scratch-postgres.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { createGate, gatewayOf, postSigned } from '../../fakes/webhook-client.js';

const secret = 'cluster-webhook-secret';
const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the cluster webhook scenario is skipped.');

describe.skipIf(!postgresUp)('?wait=true across instances', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 60_000);

  it('answers the waiting request with the reply of a turn another instance ran', async () => {
    const database = await createScratchDatabase();
    cleanups.push(() => database.drop());
    const model: ScriptedModelServer = await createScriptedModelServer();
    cleanups.push(() => model.close());
    const folder = mkdtempSync(join(tmpdir(), 'echo-cluster-webhook-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const oneSlot = join(folder, 'one-slot.yaml');
    writeFileSync(oneSlot, 'bus:\n  maxConcurrentTurns: 1\n');
    const environment = { ECHO_STORAGE_URL: database.url, OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, GATEWAY_PORT: '0' };
    const blocker = createGate();
    cleanups.push(async () => blocker.open());
    model.setFallback(async (_body, context) => {
      if (context.lastUserText === 'hold the only slot') {
        await blocker.opened;
        return { text: 'released' };
      }
      if (context.lastUserText === 'fail across') return { status: 401, errorMessage: 'invalid api key' };
      return { text: `answer: ${context.lastUserText}` };
    });

    const first: TestApp = await startTestApp({ environment, configFile: oneSlot });
    cleanups.push(() => first.stop());
    const firstUrl = gatewayOf(first.app).baseUrl;
    // The first instance alone takes this turn and keeps its only slot busy.
    expect((await postSigned({ baseUrl: firstUrl, secret, body: { chatId: 'blocker', text: 'hold the only slot' } })).status).toBe(202);
    await waitFor(() => (first.app.bus.stats().active === 1 ? true : undefined), 'the first instance busy');

    const second: TestApp = await startTestApp({ environment });
    cleanups.push(() => second.stop());
    const answer = await postSigned({ baseUrl: firstUrl, secret, body: { chatId: 'orders', text: 'ping across' }, query: '?wait=true' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reply: 'answer: ping across' });
    // The first instance never ran it: its one slot was still busy with the blocker.
    expect(first.app.bus.stats().active).toBe(1);
    // A turn that fails there is answered here with its status, not a 200 carrying the sentence.
    const failed = await postSigned({ baseUrl: firstUrl, secret, body: { chatId: 'orders', text: 'fail across' }, query: '?wait=true' });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: { code: 'model-unavailable' }, reply: expect.stringMatching(/^I could not reach the model/) });
    expect(first.app.bus.stats().active).toBe(1);
    blocker.open();
  }, 60_000);
});
