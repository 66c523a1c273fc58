import { afterEach, describe, expect, it } from 'vitest';
import { cancelTaskTool } from '../../../tools/cancel-task-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('cancel_task tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('cancels a job of this chat', async () => {
    fake = await createFakeToolServices();
    const created = await fake.scheduler.create({ schedule: '*/5 * * * *', prompt: 'Ping', target: fake.context.target, createdBy: '42' });
    if (!created.ok) throw new Error(created.error);
    const outcome = await cancelTaskTool.execute(cancelTaskTool.input.parse({ id: created.job.id }), fake.context);
    expect(outcome).toMatchObject({ ok: true });
    expect(await fake.scheduler.list()).toHaveLength(0);
  });

  it('refuses to cancel a job that posts in another chat', async () => {
    fake = await createFakeToolServices();
    const created = await fake.scheduler.create({ schedule: '0 7 * * *', prompt: 'Theirs', target: { channel: 'telegram', chatId: '555' }, createdBy: '7' });
    if (!created.ok) throw new Error(created.error);
    const outcome = await cancelTaskTool.execute({ id: created.job.id }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('another chat') });
    expect(await fake.scheduler.list()).toHaveLength(1);
  });

  it('says when the id is unknown', async () => {
    fake = await createFakeToolServices();
    expect(await cancelTaskTool.execute({ id: 'nope' }, fake.context)).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('nope') });
  });
});
