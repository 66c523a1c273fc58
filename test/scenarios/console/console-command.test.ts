import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

describe('/console in a chat', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('with the console off, says it is off and how to turn it on, and nothing of src/console/ is mounted', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001' });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('/console'));
    const answer = await scenario.waitForBotMessage((message) => message.text.includes('console'), 'the answer to /console');
    expect(answer.text).toContain('The web console is off');
    expect(answer.text).toContain('console.enabled: true');
    expect(scenario.testApp.app.gateway?.routes().some((route) => route.path.startsWith('/console'))).toBe(false);
  });

  it('with the console on, sends a one-time link in a private chat, and refuses to send one into a group', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml: 'console:\n  enabled: true\nchannels:\n  telegram:\n    groups: "-100500"\n' });
    const address = scenario.testApp.app.gateway?.address();
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('/console'));
    const link = await scenario.waitForBotMessage((message) => message.text.includes('/console/login?token='), 'the console link');
    expect(link.text).toContain(`http://127.0.0.1:${address?.port}/console/login?token=`);
    expect(link.text).toContain('10 minutes');

    const group = scenario.client({ userId: 1001, chatId: -100500, type: 'supergroup' });
    await group.sendMessage(group.makeMessage('/console@TestNameBot'));
    const refused = await scenario.waitForBotMessage((message) => message.text.includes('private chat'), 'the refusal in a group');
    expect(refused.text).not.toContain('token=');
  });
});
