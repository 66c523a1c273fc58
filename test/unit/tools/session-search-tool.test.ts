import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { sessionSearchTool } from '../../../tools/session-search-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('session_search tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('finds user and assistant messages case-insensitively, newest first, with the role', async () => {
    const history: ChatMessage[] = [
      { role: 'system', content: 'You mention the Budget often.' },
      { role: 'user', content: 'What was the budget for Q3?' },
      { role: 'assistant', content: `${'Filler text. '.repeat(20)}The BUDGET was 12k.${' More filler.'.repeat(20)}` },
      { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'budget.csv' },
      { role: 'user', content: 'Thanks, unrelated.' },
    ];
    fake = await createFakeToolServices({ history });
    const outcome = await sessionSearchTool.execute(sessionSearchTool.input.parse({ query: 'budget' }), fake.context);
    expect(outcome.ok).toBe(true);
    const lines = outcome.ok ? outcome.output.split('\n') : [];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[assistant\] ….*The BUDGET was 12k\..*…$/);
    expect(lines[0]?.length).toBeLessThan(250);
    expect(lines[1]).toBe('[user] What was the budget for Q3?');
  });

  it('returns at most 10 matches and says how many more there were', async () => {
    const history: ChatMessage[] = Array.from({ length: 15 }, (_, index) => ({ role: 'user', content: `note ${index}` }));
    fake = await createFakeToolServices({ history });
    const outcome = await sessionSearchTool.execute({ query: 'note' }, fake.context);
    const lines = outcome.ok ? outcome.output.split('\n') : [];
    expect(lines.filter((line) => line.startsWith('[user]'))).toHaveLength(10);
    expect(lines[0]).toBe('[user] note 14');
    expect(outcome.ok && outcome.output).toContain('5 older matches');
  });

  it('says when nothing matches', async () => {
    fake = await createFakeToolServices({ history: [{ role: 'user', content: 'hello' }] });
    expect(await sessionSearchTool.execute({ query: 'budget' }, fake.context)).toMatchObject({ ok: true, output: expect.stringContaining('No earlier message') });
  });
});
