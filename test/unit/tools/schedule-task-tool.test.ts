import { afterEach, describe, expect, it } from 'vitest';
import { scheduleTaskTool } from '../../../tools/schedule-task-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('schedule_task tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('creates a recurring job for this chat and says its id', async () => {
    fake = await createFakeToolServices({ timezone: 'Europe/Paris' });
    const input = scheduleTaskTool.input.parse({ schedule: '0 9 * * 1-5', prompt: 'Summarise my inbox' });
    const outcome = await scheduleTaskTool.execute(input, fake.context);
    const [job] = await fake.scheduler.list();
    expect(job).toMatchObject({ schedule: '0 9 * * 1-5', timezone: 'Europe/Paris', prompt: 'Summarise my inbox', createdBy: '42' });
    expect(job?.target).toEqual(fake.context.target);
    expect(outcome).toMatchObject({ ok: true, output: expect.stringContaining(`Scheduled task ${job?.id}`) });
  });

  it('creates a one-time job and reports its next run', async () => {
    fake = await createFakeToolServices({ now: () => new Date('2030-01-01T00:00:00Z') });
    const input = scheduleTaskTool.input.parse({ schedule: '2030-01-02T08:30:00Z', prompt: 'Remind me of the dentist', timezone: 'UTC' });
    const outcome = await scheduleTaskTool.execute(input, fake.context);
    expect(outcome).toMatchObject({ ok: true, output: expect.stringContaining('Next run: 2030-01-02T08:30:00.000Z') });
  });

  it('refuses an invalid schedule without creating anything', async () => {
    fake = await createFakeToolServices();
    const outcome = await scheduleTaskTool.execute(scheduleTaskTool.input.parse({ schedule: 'every morning', prompt: 'x' }), fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('not valid') });
    expect(await fake.scheduler.list()).toHaveLength(0);
  });

  it('describes recurring and one-time jobs for the approval card', () => {
    const describe = scheduleTaskTool.describeForApproval;
    expect(describe?.({ schedule: '0 9 * * *', prompt: 'News digest', timezone: 'Asia/Tokyo' }, { timezone: 'Europe/Berlin' })).toBe('Every 0 9 * * * (Asia/Tokyo): "News digest"');
    expect(describe?.({ schedule: '2030-05-01T10:00:00Z', prompt: 'Call Bob' }, { timezone: 'Europe/Berlin' })).toBe('Once at 2030-05-01T10:00:00Z (Europe/Berlin): "Call Bob"');
  });

  it('is declared as needing approval every time', () => {
    expect(scheduleTaskTool).toMatchObject({ approval: 'always', risk: 'write', sideEffects: true, capabilities: ['scheduler.write'] });
  });
});
