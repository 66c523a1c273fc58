import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const groupId = -100500;
const groupYaml = `channels:\n  telegram:\n    groups: "${groupId}"\n`;

describe('telegram groups', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('answers in a listed group only when mentioned or replied to, with one session for the group', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,1002', yaml: groupYaml });
    scenario.model.setFallback((_body, context) => ({ text: `echo: ${context.lastUserText}` }));
    const alice = scenario.client({ userId: 1001, chatId: groupId, type: 'supergroup' });
    const bob = scenario.client({ userId: 1002, chatId: groupId, type: 'supergroup' });

    await alice.sendMessage(alice.makeMessage('just chatting among humans'));
    await alice.sendMessage(alice.makeMessage('@TestNameBot what is the plan?'));
    const first = await scenario.waitForBotMessage((message) => message.text.startsWith('echo:'), 'the answer to the mention');
    expect(first).toMatchObject({ chatId: String(groupId), text: 'echo: what is the plan?' });

    // A reply to one of the bot's messages addresses the bot without naming it.
    const reply = bob.makeMessage('and then?', { reply_to_message: { message_id: first.messageId, from: { id: 666, is_bot: true, first_name: 'Bot' }, chat: { id: groupId, type: 'supergroup' }, text: first.text } } as never);
    await bob.sendMessage(reply);
    const second = await scenario.waitForBotMessage((message) => message.text.startsWith('echo: and then?'), 'the answer to the reply');
    expect(second.chatId).toBe(String(groupId));

    const texts = scenario.modelRequests().map((request) => JSON.stringify(request.body?.messages));
    expect(texts).toHaveLength(2);
    expect(texts.join('\n')).not.toContain('just chatting among humans');
    // One session for the group: the second request carries the first exchange.
    expect(texts[1]).toContain('what is the plan?');
  });

  it('ignores a group that is not listed', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: groupYaml });
    const elsewhere = scenario.client({ userId: 1001, chatId: -100999, type: 'group' });
    await elsewhere.sendMessage(elsewhere.makeMessage('@TestNameBot hello?'));
    // The private chat answer proves the earlier update was processed (updates are handled in order).
    const direct = scenario.client({ userId: 1001 });
    scenario.model.enqueue({ text: 'private answer' });
    await direct.sendMessage(direct.makeMessage('hello in private'));
    await scenario.waitForBotMessage((message) => message.text === 'private answer', 'the private answer');
    expect(scenario.modelRequests()).toHaveLength(1);
    expect(scenario.botMessages(-100999)).toHaveLength(0);
  });
});
