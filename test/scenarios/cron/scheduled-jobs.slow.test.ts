import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, type TestAppOptions, waitFor } from '../../fakes/start-test-app.js';
import { createGate } from '../../fakes/webhook-client.js';
import { createConfigWriter, cronOf, isoIn, modelCallsWith, schedulingModel, storedJob, waitForFinishedRun } from './cron-test-helpers.js';

let model: ScriptedModelServer;
const running: TestApp[] = [];
const folders: string[] = [];
const configs = createConfigWriter();

beforeAll(async () => {
  model = await createScriptedModelServer({ fallback: schedulingModel });
});
afterAll(async () => {
  await model.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  configs.cleanup();
});
afterEach(async () => {
  model.setFallback(schedulingModel);
  while (running.length > 0) await running.pop()?.stop();
});

async function startChat(options: TestAppOptions = {}): Promise<TestApp> {
  const test = await startTestApp({ mode: 'chat', ...options, environment: { OPENAI_BASE_URL: model.url, ...options.environment } });
  running.push(test);
  return test;
}

const cliTarget = { channel: 'cli', chatId: 'local' };

describe('scheduled jobs, fired by the real cron channel into the real runtime', () => {
  it('fires a one-time task at its time and delivers the answer to its target', async () => {
    const test = await startChat();
    const created = await cronOf(test.app).scheduler.create({ schedule: isoIn(1200), prompt: 'water the plants', target: cliTarget, createdBy: 'local' });
    if (!created.ok) throw new Error(created.error);
    expect(created.job.nextRunAt).toBeDefined();
    await waitFor(() => test.terminalText().includes('ran: water the plants'), 'the answer in the terminal');
    const job = await waitForFinishedRun(test.app, created.job.id, 'the recorded run');
    expect(job.lastRun).toMatchObject({ status: 'succeeded', delivered: true, finishedAt: expect.any(String) });
    expect(job.done).toBe(true);
    expect(await cronOf(test.app).scheduler.list()).toEqual([]);
    expect(modelCallsWith(model, 'water the plants')).toBe(1);
  });

  it('fires a recurring 6-field schedule through node-cron, again and again', async () => {
    const configFile = configs.write(['cron:', '  jobs:', '    - id: every-second', "      schedule: '* * * * * *'", '      prompt: count the sheep', '      target: cli:local'].join('\n'));
    const test = await startChat({ configFile });
    await waitFor(
      async () => ((await storedJob(test.app, 'every-second'))?.recentRuns ?? []).filter((run) => run.status === 'succeeded').length >= 2,
      'two delivered runs',
      20_000,
    );
    expect(test.terminalText().split('ran: count the sheep').length - 1).toBeGreaterThanOrEqual(2);
    const job = await storedJob(test.app, 'every-second');
    expect(job?.source).toBe('config');
    expect(job?.nextRunAt).toBeDefined();
  });

  it('does not start a job again while its previous run is still going', async () => {
    const test = await startChat();
    const cron = cronOf(test.app);
    const created = await cron.scheduler.create({ schedule: '0 0 1 1 *', prompt: 'slow report', target: cliTarget, createdBy: 'local' });
    if (!created.ok) throw new Error(created.error);
    const gate = createGate();
    model.setFallback(async () => {
      await gate.opened;
      return { text: 'ran: slow report' };
    });
    const first = await cron.runNow(created.job.id);
    expect(first.ok).toBe(true);
    const second = await cron.runNow(created.job.id);
    expect(second).toMatchObject({ ok: false, reason: 'skipped' });
    gate.open();
    const job = await waitFor(
      async () => {
        const current = await storedJob(test.app, created.job.id);
        return current?.lastRun?.status === 'succeeded' ? current : undefined;
      },
      'the first run finishing',
    );
    expect(job.recentRuns?.map((run) => run.status)).toEqual(['succeeded', 'skipped']);
    expect(modelCallsWith(model, 'slow report')).toBe(1);
    // Once it finished, it may run again.
    model.setFallback(schedulingModel);
    expect((await cron.runNow(created.job.id)).ok).toBe(true);
  });

  it('records a failed delivery as failed, with the error, never as done', async () => {
    const test = await startChat();
    const created = await cronOf(test.app).scheduler.create({ schedule: '0 0 1 1 *', prompt: 'post to telegram', target: { channel: 'telegram', chatId: '123' }, createdBy: '42' });
    if (!created.ok) throw new Error(created.error);
    expect((await cronOf(test.app).runNow(created.job.id)).ok).toBe(true);
    const job = await waitForFinishedRun(test.app, created.job.id, 'the failed run');
    expect(job.lastRun).toMatchObject({ status: 'failed', delivered: false, deliveryError: expect.stringContaining('No channel named "telegram"') });
    expect(modelCallsWith(model, 'post to telegram')).toBe(1);
  });

  it('refuses to run a task whose content changed since it was approved', async () => {
    const test = await startChat();
    const created = await cronOf(test.app).scheduler.create({ schedule: '0 0 1 1 *', prompt: 'say good morning', target: cliTarget, createdBy: 'local' });
    if (!created.ok) throw new Error(created.error);
    const schedules = test.app.store.namespace<Record<string, unknown>>('schedules');
    const stored = await schedules.get(created.job.id);
    await schedules.set(created.job.id, { ...stored, prompt: 'delete everything' });
    const result = await cronOf(test.app).runNow(created.job.id);
    expect(result).toMatchObject({ ok: false, reason: 'refused' });
    const job = await storedJob(test.app, created.job.id);
    expect(job?.lastRun).toMatchObject({ status: 'failed', error: expect.stringContaining('approved') });
    expect(modelCallsWith(model, 'delete everything')).toBe(0);
  });
});

describe('scheduled jobs across a restart', () => {
  it('fires a task stored before a restart at its time after it', async () => {
    const first = await startChat();
    const created = await cronOf(first.app).scheduler.create({ schedule: isoIn(2500), prompt: 'feed the cat', target: cliTarget, createdBy: 'local' });
    if (!created.ok) throw new Error(created.error);
    running.splice(running.indexOf(first), 1);
    await first.stop({ keepData: true });
    folders.push(first.dataDir);

    const second = await startChat({ dataDir: first.dataDir });
    await waitFor(() => second.terminalText().includes('ran: feed the cat'), 'the answer after the restart');
    const job = await waitForFinishedRun(second.app, created.job.id, 'the recorded run');
    expect(job.lastRun).toMatchObject({ status: 'succeeded', delivered: true });
    expect(modelCallsWith(model, 'feed the cat')).toBe(1);
  });

  it('runs a one-time task whose time passed while the process was down, once', async () => {
    const first = await startChat();
    const at = isoIn(600);
    const created = await cronOf(first.app).scheduler.create({ schedule: at, prompt: 'missed the bus', target: cliTarget, createdBy: 'local' });
    if (!created.ok) throw new Error(created.error);
    running.splice(running.indexOf(first), 1);
    await first.stop({ keepData: true });
    folders.push(first.dataDir);
    await waitFor(() => Date.now() > new Date(at).getTime() + 100, 'the task time to pass while down');

    const second = await startChat({ dataDir: first.dataDir });
    await waitFor(() => second.terminalText().includes('ran: missed the bus'), 'the catch-up answer');
    await waitForFinishedRun(second.app, created.job.id, 'the catch-up run');
    running.splice(running.indexOf(second), 1);
    await second.stop();

    // A third start must not run it again.
    const third = await startChat({ dataDir: first.dataDir });
    const job = await storedJob(third.app, created.job.id);
    expect(job).toMatchObject({ done: true, lastRun: { status: 'succeeded' } });
    await third.app.bus.idle();
    expect(modelCallsWith(model, 'missed the bus')).toBe(1);
  });
});
