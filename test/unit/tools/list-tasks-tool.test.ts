import { afterEach, describe, expect, it } from 'vitest';
import { listTasksTool } from '../../../tools/list-tasks-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('list_tasks tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('lists only the jobs of this chat', async () => {
    fake = await createFakeToolServices();
    await fake.scheduler.create({ schedule: '0 8 * * *', prompt: 'Weather here', target: fake.context.target, createdBy: '42' });
    await fake.scheduler.create({ schedule: '0 8 * * *', prompt: 'Elsewhere', target: { channel: 'telegram', chatId: '999' }, createdBy: '7' });
    const outcome = await listTasksTool.execute(listTasksTool.input.parse({}), fake.context);
    expect(outcome).toMatchObject({ ok: true, output: expect.stringContaining('Weather here') });
    expect(outcome.ok && outcome.output).not.toContain('Elsewhere');
  });

  it('says when nothing is scheduled', async () => {
    fake = await createFakeToolServices();
    expect(await listTasksTool.execute({}, fake.context)).toEqual({ ok: true, output: 'No tasks are scheduled in this chat.' });
  });
});
