import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/registry/tool-context.js';
import { todoTool } from '../../../tools/todo-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

function run(raw: unknown, context: ToolContext) {
  return todoTool.execute(todoTool.input.parse(raw), context);
}

describe('todo tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('adds, lists, marks done and removes items with short numeric ids', async () => {
    fake = await createFakeToolServices();
    const { context } = fake;
    expect(await run({ action: 'add', text: 'Draft the report' }, context)).toMatchObject({ ok: true, output: 'Added #1: Draft the report' });
    expect(await run({ action: 'add', text: 'Send it to Ana' }, context)).toMatchObject({ ok: true, output: 'Added #2: Send it to Ana' });
    expect(await run({ action: 'done', id: 1 }, context)).toMatchObject({ ok: true, output: expect.stringContaining('#1 [x] Draft the report') });
    expect(await run({ action: 'remove', id: 2 }, context)).toMatchObject({ ok: true });
    expect(await run({ action: 'list' }, context)).toEqual({ ok: true, output: '#1 [x] Draft the report' });
    // Ids are never reused after a removal.
    expect(await run({ action: 'add', text: 'Archive' }, context)).toMatchObject({ output: 'Added #3: Archive' });
  });

  it('keeps one list per session', async () => {
    fake = await createFakeToolServices();
    await run({ action: 'add', text: 'Only here' }, fake.context);
    const otherChat = fake.contextFor({ chatId: '2002' });
    expect(await run({ action: 'list' }, otherChat)).toEqual({ ok: true, output: 'The to-do list is empty.' });
  });

  it('explains missing text, missing id and unknown ids', async () => {
    fake = await createFakeToolServices();
    expect(await run({ action: 'add' }, fake.context)).toMatchObject({ ok: false, kind: 'business' });
    expect(await run({ action: 'done' }, fake.context)).toMatchObject({ ok: false, kind: 'business' });
    expect(await run({ action: 'remove', id: 9 }, fake.context)).toMatchObject({ ok: false, error: expect.stringContaining('#9') });
  });
});
