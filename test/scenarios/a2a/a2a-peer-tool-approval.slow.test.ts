import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { buttonData, calleeYaml, createPublishTool, personKey, startCaller } from './a2a-caller-world.js';

let callee: TelegramScenario | undefined;
let caller: Awaited<ReturnType<typeof startCaller>> | undefined;
afterEach(async () => {
  await caller?.stop();
  await callee?.stop();
  caller = undefined;
  callee = undefined;
});

describe('a2a__<peer>: another echo-agent as a governed tool', () => {
  it("the caller's model calls a2a__peer; the callee's turn waits for its approver's button, completes, and the caller's answer carries the result", async () => {
    const publish = createPublishTool();
    callee = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml: calleeYaml, extraTools: [publish.tool] });
    callee.model.enqueue({ toolCalls: [{ name: 'publish_post', arguments: { title: 'launch' } }] }, { text: 'published launch for you' });
    const address = callee.testApp.app.gateway?.address();
    if (!address) throw new Error('the callee gateway is not listening');
    caller = await startCaller(`http://${address.host}:${address.port}`);
    expect(caller.app.app.registry.names()).toContain('a2a__peer');

    const answer = new OpenAI({ apiKey: personKey, baseURL: `${caller.baseUrl}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'please ask the peer to publish' }], user: 'launch' });
    const card = await callee.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card in the callee chat', 20_000);
    expect(card.text).toContain('launch');
    expect(publish.runs).toEqual([]);
    const approver = callee.client({ userId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));

    const completion = await answer;
    expect(completion.choices[0]?.message.content).toMatch(/^the peer says: published launch for you\n\n\[task [0-9a-f-]{36} of the agent "peer"\]$/);
    expect(publish.runs).toEqual(['launch']);
  });
});
