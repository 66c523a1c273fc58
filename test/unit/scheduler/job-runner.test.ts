import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHashOf } from '../../../src/scheduler/content-hash.js';
import { createJobRunner } from '../../../src/scheduler/create-job-runner.js';
import { createJobStore, type JobStore, type StoredJob } from '../../../src/scheduler/job-store.js';
import type { EmitResult } from '../../../src/events/channel.js';
import type { InboundEvent } from '../../../src/events/inbound-event.js';
import type { Delivery, OutboundEvent } from '../../../src/events/outbound-event.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { createTelemetry, type Telemetry } from '../../../src/telemetry/telemetry.js';

let store: Store;
let jobs: JobStore;
let telemetry: Telemetry;
const emitted: InboundEvent[] = [];
const sent: OutboundEvent[] = [];
let emitAnswer: EmitResult = { accepted: true };
const now = () => new Date('2030-01-01T08:00:00Z');

const content = { schedule: '0 9 * * *', prompt: 'news', timezone: 'UTC', timezoneApproved: true };
const toolJob: StoredJob = {
  id: 'task-1',
  ...content,
  target: { channel: 'telegram', chatId: '-100' },
  source: 'tool',
  createdBy: '42',
  createdAt: '2029-12-31T00:00:00Z',
  approvedContentHash: contentHashOf(content),
  catchUp: 'skip',
};

beforeEach(async () => {
  store = await createStore({ url: 'memory:', dataDir: '.' });
  jobs = createJobStore(store);
  telemetry = createTelemetry();
  emitted.length = 0;
  sent.length = 0;
  emitAnswer = { accepted: true };
});
afterEach(async () => {
  await store.close();
});

async function runner(delivery: Delivery = { ok: true }) {
  const created = createJobRunner({
    jobs,
    outbox: {
      send: async (event) => {
        sent.push(event);
        return delivery;
      },
    },
    telemetry,
    logger: await createLogger({ level: 'silent', pretty: false }),
    now,
  });
  created.attach(async (event) => {
    emitted.push(event);
    return emitAnswer;
  });
  return created;
}

describe('the job runner', () => {
  it('fires a schedule-fired event into the job session, unattended, with the approved hash', async () => {
    await jobs.put(toolJob);
    const fired = await (await runner()).fire('task-1', 'manual');
    expect(fired.ok).toBe(true);
    expect(emitted[0]).toMatchObject({
      type: 'schedule-fired',
      channel: 'telegram',
      chatId: '-100',
      sessionKey: 'cron:task-1',
      origin: 'schedule',
      unattended: true,
      jobId: 'task-1',
      prompt: 'news',
      approvedContentHash: toolJob.approvedContentHash,
    });
    expect((await jobs.get('task-1'))?.lastRun).toEqual({ startedAt: '2030-01-01T08:00:00.000Z', status: 'running', eventId: emitted[0]?.id });
  });

  it('records success only when the answer was delivered, and skips a firing while the run is going', async () => {
    await jobs.put(toolJob);
    const jobRunner = await runner();
    const fired = await jobRunner.fire('task-1', 'scheduled');
    expect(await jobRunner.fire('task-1', 'scheduled')).toMatchObject({ ok: false, reason: 'skipped' });
    expect(emitted).toHaveLength(1);
    if (!fired.ok) throw new Error('did not fire');
    telemetry.emitTurnFinished({ causationId: fired.eventId, sessionKey: 'cron:task-1', status: 'completed', text: 'hi', delivery: { ok: true, messageId: '7' } });
    await jobRunner.detach();
    const job = await jobs.get('task-1');
    expect(job?.lastRun).toMatchObject({ status: 'succeeded', delivered: true, finishedAt: expect.any(String) });
    expect(job?.recentRuns?.map((run) => run.status)).toEqual(['succeeded', 'skipped']);
    expect(jobRunner.isRunning('task-1')).toBe(false);
  });

  it('records a failed delivery as failed and tells the owner in their private chat', async () => {
    await jobs.put(toolJob);
    const jobRunner = await runner();
    const fired = await jobRunner.fire('task-1', 'scheduled');
    if (!fired.ok) throw new Error('did not fire');
    telemetry.emitTurnFinished({ causationId: fired.eventId, sessionKey: 'cron:task-1', status: 'completed', text: 'hi', delivery: { ok: false, error: 'chat not found', retryable: false } });
    await jobRunner.detach();
    expect((await jobs.get('task-1'))?.lastRun).toMatchObject({ status: 'failed', delivered: false, deliveryError: 'chat not found' });
    expect(sent).toEqual([expect.objectContaining({ type: 'reply', target: { channel: 'telegram', chatId: '42' }, text: expect.stringContaining('could not be delivered to telegram:-100: chat not found') })]);
  });

  it('keeps a run open while it waits for approval, and closes it when the resumed turn in its session ends', async () => {
    await jobs.put(toolJob);
    const jobRunner = await runner();
    const fired = await jobRunner.fire('task-1', 'scheduled');
    if (!fired.ok) throw new Error('did not fire');
    telemetry.emitTurnFinished({ causationId: fired.eventId, sessionKey: 'cron:task-1', status: 'suspended', text: 'Waiting for approval' });
    expect(jobRunner.isRunning('task-1')).toBe(true);
    telemetry.emitTurnFinished({ causationId: 'resume-event', sessionKey: 'cron:task-1', status: 'completed', text: 'done', delivery: { ok: true } });
    await jobRunner.detach();
    expect((await jobs.get('task-1'))?.lastRun).toMatchObject({ status: 'succeeded', delivered: true });
  });

  it('refuses a job edited since its approval, and records why', async () => {
    await jobs.put({ ...toolJob, prompt: 'something else' });
    const result = await (await runner()).fire('task-1', 'scheduled');
    expect(result).toMatchObject({ ok: false, reason: 'refused' });
    expect(emitted).toHaveLength(0);
    expect((await jobs.get('task-1'))?.lastRun).toMatchObject({ status: 'failed', error: expect.stringContaining('approved') });
  });

  it('records a firing the bus refused as failed, and a spent one-time job does not fire again on schedule', async () => {
    await jobs.put({ ...toolJob, id: 'once', schedule: '2030-01-01T09:00:00Z', approvedContentHash: contentHashOf({ ...content, schedule: '2030-01-01T09:00:00Z' }), catchUp: 'run-once' });
    emitAnswer = { accepted: false, reason: 'busy' };
    const jobRunner = await runner();
    expect(await jobRunner.fire('once', 'scheduled')).toMatchObject({ ok: false, reason: 'busy' });
    const job = await jobs.get('once');
    expect(job).toMatchObject({ done: true, lastRun: { status: 'failed', error: expect.stringContaining('busy') } });
    expect(await jobRunner.fire('once', 'scheduled')).toMatchObject({ ok: false, reason: 'done' });
    expect(await jobRunner.fire('missing', 'manual')).toMatchObject({ ok: false, reason: 'not-found' });
  });
});
