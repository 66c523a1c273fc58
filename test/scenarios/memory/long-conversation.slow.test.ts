// A fact stated 200 exchanges ago, far past the history budget, is still answered: through the compaction summary at
// the head of the history and through the fact store, over a real Telegram bot (emulator) and the scripted model.
import { afterEach, describe, expect, it } from 'vitest';
import { compactionPrompt } from '../../../src/memory/compaction-prompt.js';
import { compactionSummaryHeading } from '../../../src/memory/compaction-summary.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import type { ScriptedRequestBody } from '../../fakes/scripted-model-server.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const firstOf = (body: ScriptedRequestBody | undefined) => body?.messages?.[0]?.content;
const textOf = (body: ScriptedRequestBody) => String(body.messages?.[1]?.content ?? '');

/** Keeps the earlier summary and every line where a person states "my X is Y": what a good summariser keeps. */
function summarise(body: ScriptedRequestBody): { text: string } {
  const transcript = textOf(body);
  const earlier = /Earlier summary:\n([\s\S]*?)\n\n/.exec(transcript)?.[1]?.split('\n') ?? [];
  const stated = transcript.split('\n').filter((line) => line.startsWith('Person:') && / my [a-z ]+ is /.test(line));
  return { text: [...new Set([...earlier, ...stated])].filter((line) => line !== '').join('\n') || 'Small talk.' };
}

function extract(body: ScriptedRequestBody): { text: string } {
  const facts = [...textOf(body).matchAll(/my ([a-z ]+?) is (\w+)/gi)].map((match) => ({ subject: match[1] ?? '', statement: `Their ${match[1]} is ${match[2]}.`, about: 'speaker' }));
  return { text: JSON.stringify({ facts }) };
}

describe('a long conversation with memory on', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('answers a fact stated 200 exchanges ago from the summary and the fact store', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'agent:\n  historyBudgetChars: 1500\nmemory:\n  enabled: true\n' });
    const current = scenario;
    current.model.setFallback((body, context) => {
      if (firstOf(body) === compactionPrompt) return summarise(body);
      if (firstOf(body) === factExtractionPrompt) return extract(body);
      if (context.lastUserText === 'What is my locker code?') {
        const code = /locker code is (\d+)/.exec(JSON.stringify(body.messages))?.[1];
        return { text: code === undefined ? 'I do not know.' : `Your locker code is ${code}.` };
      }
      return { text: `noted: ${context.lastUserText}` };
    });
    const alice = current.client({ userId: 1001, userName: 'alice' });
    const say = async (text: string) => {
      await alice.sendMessage(alice.makeMessage(text));
      await current.waitForBotMessage((message) => message.text === `noted: ${text}`, `the answer to ${text.slice(0, 20)}`);
    };
    await say('Please keep this: my locker code is 4417.');
    for (let index = 1; index <= 200; index += 1) await say(`exchange ${String(index).padStart(3, '0')} about the weather, the trains and lunch plans ${'.'.repeat(60)}`);

    await alice.sendMessage(alice.makeMessage('What is my locker code?'));
    await current.waitForBotMessage((message) => message.text === 'Your locker code is 4417.', 'the answer from memory');

    const question = current.modelRequests().find((request) => firstOf(request.body) !== compactionPrompt && firstOf(request.body) !== factExtractionPrompt && JSON.stringify(request.body?.messages).includes('What is my locker code?'));
    const messages = question?.body?.messages ?? [];
    // The exchange itself is long gone from the history the model read; the summary and the fact carry it.
    expect(messages.some((message) => message.role === 'user' && String(message.content).includes('Please keep this'))).toBe(false);
    expect(String(messages[0]?.content)).toContain('Their locker code is 4417.');
    const summary = messages.find((message) => message.role === 'system' && String(message.content).startsWith(compactionSummaryHeading));
    expect(String(summary?.content)).toContain('my locker code is 4417');
    expect(current.modelRequests().filter((request) => firstOf(request.body) === compactionPrompt).length).toBeGreaterThan(10);
  }, 240_000);
});
