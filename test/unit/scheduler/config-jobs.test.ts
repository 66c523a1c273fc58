import { describe, expect, it } from 'vitest';
import { jobsFromConfig, syncConfigJobs } from '../../../src/scheduler/config-jobs.js';
import type { StoredJob } from '../../../src/scheduler/job-store.js';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { createConfigSchema } from '../../../src/config/config-schema.js';

const configSchema = createConfigSchema(channelConfigSections());

const config = configSchema.parse({
  agent: { timezone: 'Europe/Paris' },
  model: { primary: { provider: 'openai', name: 'm' } },
  cron: {
    jobs: [
      { id: 'daily', schedule: '0 9 * * *', prompt: 'news', target: 'telegram:123' },
      { id: 'once', schedule: '2030-01-01T09:00:00', prompt: 'hi', target: 'cli:local', timezone: 'UTC' },
      { id: 'broken', schedule: '99 * * * *', prompt: 'x', target: 'cli:local' },
    ],
  },
});

describe('config jobs', () => {
  it('reads jobs with the default zone and catch-up, and reports invalid schedules', () => {
    const { jobs, problems } = jobsFromConfig(config, { now: new Date('2029-01-01T00:00:00Z') });
    expect(jobs[0]).toMatchObject({ id: 'daily', timezone: 'Europe/Paris', target: { channel: 'telegram', chatId: '123' }, source: 'config', catchUp: 'skip' });
    expect(jobs[1]).toMatchObject({ id: 'once', timezone: 'UTC', catchUp: 'run-once' });
    expect(problems).toEqual([expect.stringContaining('cron job broken')]);
  });

  it('keeps run state of unchanged jobs, restarts changed ones, drops removed ones, and never replaces a tool job', () => {
    const { jobs: fromConfig } = jobsFromConfig(config, { now: new Date() });
    const daily = fromConfig[0] as StoredJob;
    const once = fromConfig[1] as StoredJob;
    const stored: StoredJob[] = [
      { ...daily, lastRun: { startedAt: 'yesterday', status: 'succeeded' }, nextRunAt: 'tomorrow' },
      { ...once, prompt: 'old prompt', done: true, lastRun: { startedAt: 'earlier', status: 'succeeded' } },
      { ...daily, id: 'gone' },
      { ...daily, id: 'broken', source: 'tool', approvedContentHash: 'h' },
    ];
    const sync = syncConfigJobs(stored, fromConfig);
    expect(sync.jobs.find((job) => job.id === 'daily')).toMatchObject({ nextRunAt: 'tomorrow', lastRun: { status: 'succeeded' } });
    const changed = sync.jobs.find((job) => job.id === 'once');
    expect(changed).toMatchObject({ prompt: 'hi', lastRun: { startedAt: 'earlier' } });
    expect(changed?.done).toBeUndefined();
    expect(sync.write.map((job) => job.id)).toEqual(['once']);
    expect(sync.remove).toEqual(['gone']);
    expect(sync.clashes).toEqual(['broken']);
    expect(sync.jobs.find((job) => job.id === 'broken')).toMatchObject({ source: 'tool' });
  });
});
