import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

describe('telegram delivery under load and refusal', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  async function ask(current: TelegramScenario, text: string): Promise<void> {
    const client = current.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage(text));
  }

  it('delivers a 6000-character answer as two messages split at a line boundary, nothing lost', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    const lines = Array.from({ length: 60 }, (_, index) => `${String(index).padStart(2, '0')} ${'x'.repeat(96)}`);
    const answer = lines.join('\n');
    expect(answer.length).toBeGreaterThanOrEqual(5999);
    scenario.model.enqueue({ text: answer });
    await ask(scenario, 'write a lot');
    const parts = await waitFor(() => {
      const sent = scenario?.botMessages(1001) ?? [];
      return sent.length >= 2 ? sent : undefined;
    }, 'two parts');
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part.text.length).toBeLessThanOrEqual(4096);
    expect(`${parts[0]?.text}\n${parts[1]?.text}`).toBe(answer);
    expect(parts[0]?.text.endsWith('x')).toBe(true);
    expect(parts[1]?.text.startsWith(String(parts[0]?.text.split('\n').length).padStart(2, '0'))).toBe(true);
    expect(parts[0]?.replyTo).toBeTypeOf('number');
    expect(parts[1]?.replyTo).toBeUndefined();
  });

  it('resends as plain text when Telegram rejects the HTML entities', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    // The emulator accepts any markup, so the proxy in front of it answers the first HTML send the way Telegram does.
    scenario.proxy.inject('sendMessage', { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: can't parse entities: Unsupported start tag \"x\" at byte offset 5" } }, {
      when: (body) => body.parse_mode === 'HTML',
    });
    scenario.model.enqueue({ text: 'Use **bold** & <angle> brackets' });
    await ask(scenario, 'format something');
    const delivered = await scenario.waitForBotMessage((message) => message.text.includes('bold'), 'the plain-text answer');
    expect(delivered.text).toBe('Use bold & <angle> brackets');
    expect(delivered.parseMode).toBeUndefined();
    // The emulator stores the message before the proxy records the call: wait for the record.
    const sends = await waitFor(() => {
      const calls = scenario?.proxy.callsOf('sendMessage') ?? [];
      return calls.length >= 2 ? calls : undefined;
    }, 'both send attempts');
    expect(sends.map((call) => [call.status, call.body.parse_mode ?? 'plain'])).toEqual([
      [400, 'HTML'],
      [200, 'plain'],
    ]);
    expect(scenario.botMessages(1001)).toHaveLength(1);
  });

  it('waits the retry_after of a 429 and sends once', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    scenario.proxy.inject('sendMessage', { status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } } });
    scenario.model.enqueue({ text: 'after the wait' });
    await ask(scenario, 'hello');
    await scenario.waitForBotMessage((message) => message.text === 'after the wait', 'the answer after the 429');
    const sends = await waitFor(() => {
      const calls = scenario?.proxy.callsOf('sendMessage') ?? [];
      return calls.length >= 2 ? calls : undefined;
    }, 'both send attempts');
    expect(sends.map((call) => call.status)).toEqual([429, 200]);
    expect(scenario.botMessages(1001)).toHaveLength(1);
  });

  it('dispatches a re-delivered update once', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    scenario.model.setFallback((_body, context) => ({ text: `echo: ${context.lastUserText}` }));
    scenario.proxy.redeliverNextUpdates();
    await ask(scenario, 'only once please');
    await scenario.waitForBotMessage((message) => message.text === 'echo: only once please', 'the first answer');
    // The copy comes in an earlier poll than the second message, and updates are handled in order.
    await waitFor(() => scenario?.proxy.redelivered === 1, 'the re-delivery');
    await ask(scenario, 'second message');
    await scenario.waitForBotMessage((message) => message.text === 'echo: second message', 'the second answer');
    expect(scenario.modelRequests()).toHaveLength(2);
    expect(scenario.botMessages(1001).map((message) => message.text)).toEqual(['echo: only once please', 'echo: second message']);
  });
});
