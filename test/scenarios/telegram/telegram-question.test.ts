import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

describe('telegram ask_user and streaming', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('shows ask_user options as buttons; a press answers the question and removes the buttons', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    scenario.model.enqueue({ toolCalls: [{ name: 'ask_user', arguments: { question: 'Tea or coffee?', options: ['Tea', 'Coffee'] } }] });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('make me a drink'));
    const question = await scenario.waitForBotMessage((message) => message.text === 'Tea or coffee?', 'the question');
    expect(question.keyboard?.map((row) => row.map((button) => button.text))).toEqual([['Tea'], ['Coffee']]);

    scenario.model.enqueue({ text: 'Coffee it is.' });
    await client.sendCallback(client.makeCallbackQuery(question.keyboard?.[1]?.[0]?.callback_data ?? '', { message: { message_id: question.messageId } }));
    await scenario.waitForBotMessage((message) => message.text === 'Coffee it is.', 'the answer after the press');
    const tool = scenario.modelRequests().at(-1)?.body?.messages?.find((message) => message.role === 'tool');
    expect(String(tool?.content)).toContain('answered: Coffee');
    const answered = await scenario.waitForBotMessage((message) => message.messageId === question.messageId && message.text.includes('Answer: Coffee'), 'the question edited');
    expect(answered.keyboard).toEqual([]);
  });

  it('answers an unknown button with an alert', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    const client = scenario.client({ userId: 1001 });
    await client.sendCallback(client.makeCallbackQuery('v0:something-old', { message: { message_id: 1 } }));
    const answer = await waitFor(() => scenario?.proxy.callsOf('answerCallbackQuery')[0], 'the answer to the press');
    expect(answer.body).toMatchObject({ show_alert: true, text: 'This button has expired or is not known.' });
  });

  it('streams a draft, edited in place, that the final answer replaces', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'channels:\n  telegram:\n    streaming: true\n' });
    const current = scenario;
    current.model.enqueue({ text: 'Let me look. ', toolCalls: [{ name: 'list_tasks', arguments: {} }] });
    // The final answer waits until the draft is on screen, so the draft is there to be replaced.
    current.model.enqueue(async () => {
      await waitFor(() => current.proxy.callsOf('sendMessage').length > 0, 'the draft');
      return { text: 'Nothing is **scheduled**.' };
    });
    const client = current.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('what is scheduled?'));
    const final = await current.waitForBotMessage((message) => message.text.includes('<b>scheduled</b>'), 'the final answer');
    expect(current.botMessages(1001)).toHaveLength(1);
    // The draft showed the text so far; the final answer (the last model reply) replaces it in the same message.
    expect(final.text).toBe('Nothing is <b>scheduled</b>.');
    const draft = current.proxy.callsOf('sendMessage');
    expect(draft).toHaveLength(1);
    // The draft is the streamed text so far (shown at once, then edited at most once a second), as plain text.
    expect(draft[0]?.body.text).toMatch(/^Let m/);
    expect('Let me look. '.startsWith(String(draft[0]?.body.text))).toBe(true);
    expect(draft[0]?.body.parse_mode).toBeUndefined();
    // The emulator stores the edit before the proxy records the call: wait for the record.
    const finalEdit = await waitFor(() => current.proxy.callsOf('editMessageText').find((call) => call.body.parse_mode === 'HTML'), 'the final edit');
    expect(finalEdit.body).toMatchObject({ message_id: final.messageId, text: 'Nothing is <b>scheduled</b>.' });
  });
});
