import { afterEach, describe, expect, it } from 'vitest';
import { askUserTool } from '../../../tools/ask-user-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('ask_user tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('asks the loop to wait for an answer', async () => {
    fake = await createFakeToolServices();
    const input = askUserTool.input.parse({ question: 'Which format?', options: ['PDF', 'Markdown'] });
    const outcome = await askUserTool.execute(input, fake.context);
    expect(outcome).toEqual({
      ok: true,
      output: 'Waiting for the person to answer.',
      awaitAnswer: { question: 'Which format?', options: ['PDF', 'Markdown'] },
    });
  });

  it('accepts 2 to 6 different, non-empty options only', () => {
    const parse = (options: string[]) => askUserTool.input.safeParse({ question: 'Pick one', options }).success;
    expect(parse(['a'])).toBe(false);
    expect(parse(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe(false);
    expect(parse(['a', ' '])).toBe(false);
    expect(parse(['a', 'a'])).toBe(false);
    expect(parse(['a', 'b', 'c', 'd', 'e', 'f'])).toBe(true);
  });
});
