// Past exchanges with a real Telegram bot (emulator) and the scripted model: an answer that was said only in an
// exchange compacted long ago (the fact extractor found nothing in it, the summary does not hold it) reaches the
// system prompt of a later turn from the exchange archive; a group's exchanges never reach a private chat and a private
// chat's never a group; /forget removes archived exchanges from recall at once.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { compactionPrompt } from '../../../src/memory/compaction-prompt.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const groupId = -100710;
const yaml = `approvals:\n  explain: false\nagent:\n  historyBudgetChars: 1000\nmemory:\n  enabled: true\nchannels:\n  telegram:\n    groups: "${groupId}"\n`;

describe('past exchanges over Telegram', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('recalls an exchange compacted long ago, only in its own scope, and not after /forget', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,1002', yaml });
    const current = scenario;
    current.model.setFallback((body, context) => {
      const first = body.messages?.[0]?.content;
      // The summary says nothing of what was said, and no fact is ever extracted: only the archive can recall it.
      if (first === compactionPrompt) return { text: 'They chatted.' };
      if (first === factExtractionPrompt) return { text: '{"facts":[]}' };
      return { text: `ok: ${context.lastUserText.split('\n')[0]}` };
    });
    const alice = current.client({ userId: 1001, userName: 'alice' });
    const bobInGroup = current.client({ userId: 1002, chatId: groupId, type: 'supergroup' });
    const say = async (client: ReturnType<TelegramScenario['client']>, text: string, mention = false) => {
      await client.sendMessage(client.makeMessage(mention ? `@TestNameBot ${text}` : text));
      await current.waitForBotMessage((message) => message.text === `ok: ${text}`, `the answer to "${text.slice(0, 30)}"`);
    };
    await say(alice, 'the locker code is 5521');
    await say(bobInGroup, 'the launch word is Zebra', true);
    for (let index = 0; index < 3; index += 1) {
      await say(alice, `filler ${index} ${'x'.repeat(200)}`);
      await say(bobInGroup, `chatter ${index} ${'y'.repeat(200)}`, true);
    }
    const { app } = current.testApp;
    await app.bus.idle();
    const sessions = app.store.namespace<{ messages: readonly ChatMessage[] }>('sessions');
    const historyOf = async (key: string) => JSON.stringify((await sessions.get(key))?.messages ?? []);
    await waitFor(async () => !(await historyOf('telegram:1001')).includes('5521') && !(await historyOf(`telegram:${groupId}`)).includes('Zebra'), 'both exchanges compacted out of their histories');
    expect(await historyOf('telegram:1001')).toContain('They chatted.');

    const isTurn = (first: unknown) => first !== compactionPrompt && first !== factExtractionPrompt;
    const systemPromptOf = (question: string) =>
      String(
        current
          .modelRequests()
          .filter((request) => isTurn(request.body?.messages?.[0]?.content) && JSON.stringify(request.body?.messages).includes(question))
          .at(-1)?.body?.messages?.[0]?.content ?? '',
      );
    await say(alice, 'what is the locker code? and the launch word?');
    const privatePrompt = systemPromptOf('what is the locker code? and the launch word?');
    expect(privatePrompt).toContain('the locker code is 5521');
    expect(privatePrompt).toContain('You answered: ok: the locker code is 5521');
    expect(privatePrompt).not.toContain('Zebra');

    await say(bobInGroup, 'what is the launch word? and the locker code?', true);
    const groupPrompt = systemPromptOf('what is the launch word? and the locker code?');
    expect(groupPrompt).toContain('the launch word is Zebra');
    expect(groupPrompt).not.toContain('5521');

    // The question above is archived after its answer went out: both locker exchanges are there before /forget.
    const archived = async () => JSON.stringify(await app.store.namespace('memory-exchanges').get('person|telegram|1001'));
    await waitFor(async () => (await archived()).includes('what is the locker code?'), 'the question archived');
    await alice.sendMessage(alice.makeMessage('/forget locker'));
    await current.waitForBotMessage((message) => message.text === 'Forgotten: 2 past exchanges.', 'the /forget answer');
    expect(JSON.stringify(await app.store.namespace('memory-exchanges').entries())).not.toContain('5521');
    await say(alice, 'the locker code, once more?');
    expect(systemPromptOf('the locker code, once more?')).not.toContain('5521');
  });
});
