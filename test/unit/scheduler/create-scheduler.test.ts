import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScheduler } from '../../../src/scheduler/create-scheduler.js';
import { createJobStore, type StoredJob } from '../../../src/scheduler/job-store.js';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { type Config, createConfigSchema } from '../../../src/config/config-schema.js';
import type { InboundEvent } from '../../../src/events/inbound-event.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { createTelemetry } from '../../../src/telemetry/telemetry.js';

const configSchema = createConfigSchema(channelConfigSections());

let store: Store;
const emitted: InboundEvent[] = [];
beforeEach(async () => {
  store = await createStore({ url: 'memory:', dataDir: '.' });
  emitted.length = 0;
});
afterEach(async () => {
  await store.close();
});

function configWith(jobs: unknown[]): Config {
  return configSchema.parse({ model: { primary: { provider: 'openai', name: 'm' } }, cron: { jobs } });
}

async function startChannel(config: Config) {
  const channel = createScheduler({ config, store, outbox: { send: async () => ({ ok: true }) }, telemetry: createTelemetry(), logger: await createLogger({ level: 'silent', pretty: false }) });
  await channel.start(async (event) => {
    emitted.push(event);
    return { accepted: true };
  });
  return channel;
}

const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();

describe('the cron channel at start-up', () => {
  it('runs a recurring job that missed a run once when it catches up, and only skips ahead when it does not', async () => {
    const config = configWith([
      { id: 'catches-up', schedule: '0 9 * * *', prompt: 'a', target: 'cli:local', catchUp: 'run-once' },
      { id: 'skips', schedule: '0 9 * * *', prompt: 'b', target: 'cli:local' },
    ]);
    const first = await startChannel(config);
    await first.stop();
    // Both were due yesterday while "the process was down".
    const jobs = createJobStore(store);
    for (const id of ['catches-up', 'skips']) await jobs.change(id, (job) => ({ ...job, nextRunAt: yesterday }));

    const channel = await startChannel(config);
    expect(emitted.map((event) => (event.type === 'schedule-fired' ? event.jobId : event.type))).toEqual(['catches-up']);
    const skipped = await jobs.get('skips');
    expect(new Date(skipped?.nextRunAt ?? 0).getTime()).toBeGreaterThan(Date.now());
    expect(skipped?.lastRun).toBeUndefined();
    await channel.stop();
  });

  it('records a run the process died in as failed, and removes config jobs no longer configured', async () => {
    const jobs = createJobStore(store);
    const stale: StoredJob = { id: 'old', schedule: '0 9 * * *', timezone: 'UTC', prompt: 'x', target: { channel: 'cli', chatId: 'local' }, source: 'config', createdAt: yesterday, catchUp: 'skip' };
    await jobs.put(stale);
    await jobs.put({ ...stale, id: 'kept', lastRun: { startedAt: yesterday, status: 'running' } });
    const channel = await startChannel(configWith([{ id: 'kept', schedule: '0 9 * * *', prompt: 'x', target: 'cli:local', timezone: 'UTC' }]));
    expect(await jobs.get('old')).toBeUndefined();
    expect((await jobs.get('kept'))?.lastRun).toMatchObject({ status: 'failed', error: 'the process stopped before the run finished', finishedAt: expect.any(String) });
    expect(channel.status()).toEqual({ state: 'running', detail: '1 job armed' });
    await channel.stop();
    expect(channel.status().state).toBe('stopped');
  });
});

describe('the scheduler port', () => {
  it('validates schedules and refuses a time already passed', async () => {
    const channel = await startChannel(configWith([]));
    expect(channel.scheduler.validate('0 9 * * *')).toMatchObject({ ok: true, nextRunAt: expect.any(String) });
    expect(channel.scheduler.validate('2001-01-01T00:00:00Z')).toMatchObject({ ok: false, error: expect.stringContaining('already passed') });
    expect(channel.scheduler.validate('0 9 * *')).toMatchObject({ ok: false });
    await channel.stop();
  });

  it('creates, lists per chat and cancels tool jobs; config jobs are cancelled in config only', async () => {
    const channel = await startChannel(configWith([{ id: 'from-config', schedule: '0 9 * * *', prompt: 'x', target: 'telegram:1' }]));
    const created = await channel.scheduler.create({ schedule: '0 8 * * *', prompt: 'p', target: { channel: 'telegram', chatId: '1', replyToMessageId: '55' }, createdBy: '42' });
    if (!created.ok) throw new Error(created.error);
    expect(created.job).toMatchObject({ source: 'tool', target: { channel: 'telegram', chatId: '1' }, approvedContentHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(created.job.target).not.toHaveProperty('replyToMessageId');
    expect((await channel.scheduler.list({ target: { channel: 'telegram', chatId: '1' } })).map((job) => job.id).sort()).toEqual(['from-config', created.job.id].sort());
    expect(await channel.scheduler.list({ target: { channel: 'telegram', chatId: '2' } })).toEqual([]);
    expect(await channel.scheduler.cancel('from-config')).toMatchObject({ ok: false, error: expect.stringContaining('configuration file') });
    expect(await channel.scheduler.cancel(created.job.id)).toMatchObject({ ok: true });
    expect((await channel.scheduler.list()).map((job) => job.id)).toEqual(['from-config']);
    expect(await channel.scheduler.create({ schedule: 'nope', prompt: 'p', target: { channel: 'telegram', chatId: '1' }, createdBy: '42' })).toMatchObject({ ok: false });
    await channel.stop();
  });
});

describe('pausing and resuming a job (web console)', () => {
  it('a paused job is not armed at start and does not catch up; run now still fires it; resumed, it is armed again', async () => {
    const config = configWith([{ id: 'daily', schedule: '0 9 * * *', prompt: 'a', target: 'cli:local', catchUp: 'run-once' }]);
    const first = await startChannel(config);
    expect(await first.pause('daily', '@boss')).toMatchObject({ ok: true, job: { paused: { by: '@boss' } } });
    expect(await first.pause('nope', '@boss')).toMatchObject({ ok: false });
    await first.stop();
    const jobs = createJobStore(store);
    await jobs.change('daily', (job) => ({ ...job, nextRunAt: yesterday }));

    const paused = await startChannel(config);
    expect(paused.status()).toEqual({ state: 'running', detail: '0 jobs armed' });
    expect(emitted).toEqual([]);
    expect(await paused.runNow('daily')).toMatchObject({ ok: true });
    expect(emitted.map((event) => (event.type === 'schedule-fired' ? event.jobId : event.type))).toEqual(['daily']);
    const resumed = await paused.resume('daily');
    expect(resumed.ok && resumed.job.paused).toBeUndefined();
    expect(new Date(resumed.ok ? (resumed.job.nextRunAt ?? 0) : 0).getTime()).toBeGreaterThan(Date.now());
    await paused.stop();

    const again = await startChannel(config);
    expect(again.status()).toEqual({ state: 'running', detail: '1 job armed' });
    await again.stop();
  });
});
