// Cluster mode, A2A tasks/cancel: the cancel reaches one instance, the task's turn runs on the other. The turn there
// must stop as it does in one process: its tool's abort signal fires, the model is not asked again, nothing is answered.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import type { TurnFinished } from '../../../src/events/outbox.js';
import { createScratchDatabase, isPostgresUp } from '../../contracts/scratch-postgres.js';
import { asTask, connectA2aClient, textRequest } from '../../fakes/a2a-test-client.js';
import { createScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { gatewayOf } from '../../fakes/webhook-client.js';
import { createSlowTool } from '../a2a/a2a-caller-world.js';

const callerKey = 'caller-secret-0123456789abcdefgh';
const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the cluster cancel scenario is skipped.');

describe.skipIf(!postgresUp)('tasks/cancel across instances', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 60_000);

  it('stops the turn another instance runs: its tool sees the abort, the model is asked once, no answer, the task stays canceled', async () => {
    const database = await createScratchDatabase();
    cleanups.push(() => database.drop());
    const model = await createScriptedModelServer();
    cleanups.push(() => model.close());
    model.enqueue({ toolCalls: [{ name: 'slow_report', arguments: { topic: 'sales' } }] }, { text: 'here is the report' });
    const folder = mkdtempSync(join(tmpdir(), 'echo-cluster-cancel-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const configFile = join(folder, 'a2a.yaml');
    writeFileSync(configFile, ['channels:', '  a2a-server:', '    keys:', `      - { name: caller, secret: ${callerKey}, tools: { alsoAllow: [slow_report] } }`, ''].join('\n'));
    const environment = { ECHO_STORAGE_URL: database.url, OPENAI_BASE_URL: model.url, GATEWAY_PORT: '0' };

    // The instance that runs the turn: alone at first, so the task's job can only go to it.
    const runnerTool = createSlowTool();
    const runner: TestApp = await startTestApp({ environment, configFile, extraTools: [runnerTool.tool] });
    cleanups.push(() => runner.stop());
    const turns: TurnFinished[] = [];
    runner.app.telemetry.onTurnFinished((report) => void turns.push(report));
    const submitted = asTask(await (await connectA2aClient(gatewayOf(runner.app).baseUrl, callerKey)).sendMessage(textRequest('build the sales report', { returnImmediately: true })));
    await waitFor(() => (runnerTool.seen.started === 1 ? true : undefined), 'the tool to start on the first instance');

    // The cancel reaches the other instance, which runs nothing of this task.
    const otherTool = createSlowTool();
    const other: TestApp = await startTestApp({ environment, configFile, extraTools: [otherTool.tool] });
    cleanups.push(() => other.stop());
    const client = await connectA2aClient(gatewayOf(other.app).baseUrl, callerKey);
    const canceled = await client.cancelTask({ tenant: '', id: submitted.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    await waitFor(() => (runnerTool.seen.aborted === 1 ? true : undefined), 'the abort signal of the tool running on the first instance', 15_000);
    await waitFor(() => turns.find((report) => report.status === 'cancelled'), 'the turn to end cancelled');
    await runner.app.bus.idle();
    expect(turns.map((report) => report.status)).toEqual(['cancelled']);
    expect(model.requests).toHaveLength(1);
    expect(otherTool.seen.started).toBe(0);
    const task = await client.getTask({ tenant: '', id: submitted.id });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(task.artifacts).toEqual([]);
  }, 90_000);
});
