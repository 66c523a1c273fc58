import { afterEach, describe, expect, it } from 'vitest';
import { createDeployTool } from '../../fakes/deploy-tool.js';
import type { ScriptedHandler } from '../../fakes/scripted-step.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { createGate } from '../../fakes/webhook-client.js';

let scenario: TelegramScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the card: ${JSON.stringify(card.keyboard)}`);
  return button.callback_data;
}

const isCard = (message: EmulatedBotMessage) => (message.keyboard?.length ?? 0) > 0;

describe('approvals hold when the runtime is under pressure', () => {
  it('runs the approved call although the origin session lane was full when the decision arrived', async () => {
    const deploy = createDeployTool();
    const slowTurn = createGate();
    const model: ScriptedHandler = async (body, context) => {
      const last = body.messages?.at(-1);
      if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
      if (context.lastUserText === 'deploy prod') return { toolCalls: [{ name: 'deploy', arguments: { target: 'prod' } }] };
      if (context.lastUserText === 'slow question') await slowTurn.opened;
      return { text: `echo: ${context.lastUserText}` };
    };
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      approvers: '2002',
      extraTools: [deploy.tool],
      sweepEveryMs: 200,
      yaml: 'tools:\n  alsoAllow: [deploy]\napprovals:\n  explain: false\n  route: approvers\nbus:\n  maxQueuedPerSession: 1\n',
    });
    scenario.model.setFallback(model);
    const requester = scenario.client({ userId: 1001 });
    await requester.sendMessage(requester.makeMessage('deploy prod'));
    const card = await scenario.waitForBotMessage((message) => message.chatId === '2002' && isCard(message), 'the card in the approver chat');

    // The requester's lane: one turn running (the model hangs), one waiting: full.
    await requester.sendMessage(requester.makeMessage('slow question'));
    await scenario.waitForBotMessage(() => scenario?.modelRequests().some((request) => JSON.stringify(request.body).includes('slow question')) ?? false, 'the slow turn to reach the model');
    await requester.sendMessage(requester.makeMessage('queued question'));
    await expectEventually(() => scenario?.testApp.app.bus.stats().queued === 1, 'the second message to wait in the lane');

    const approver = scenario.client({ userId: 2002 });
    await approver.sendCallback(approver.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Approved by'), 'the card edited');
    expect(deploy.runs).toEqual([]);

    slowTurn.open();
    await expectEventually(() => deploy.runs.length > 0, 'the approved call to run');
    // The model is then told the result (with a note, since the chat moved on while the card waited).
    await expectEventually(() => scenario?.modelRequests().some((request) => JSON.stringify(request.body).includes('deployed to prod')) ?? false, 'the model to read the result');
    expect(deploy.runs).toEqual(['prod']);
  });

  it('"Approve once" covers the one call on the card: three identical calls run once, and the next one asks again', async () => {
    const deploy = createDeployTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', extraTools: [deploy.tool], yaml: 'tools:\n  alsoAllow: [deploy]\napprovals:\n  explain: false\n' });
    const three = { toolCalls: [1, 2, 3].map(() => ({ name: 'deploy', arguments: { target: 'prod' } })) };
    scenario.model.enqueue(three);
    scenario.model.setFallback((body) => {
      const last = body.messages?.at(-1);
      return { text: last?.role === 'tool' ? `after: ${String(last.content)}` : 'ok' };
    });
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('deploy prod three times'));
    const first = await scenario.waitForBotMessage(isCard, 'the first card');
    await person.sendCallback(person.makeCallbackQuery(buttonData(first, /^✅ Approve$|Approve$/), { message: { message_id: first.messageId } }));

    // The approved call runs; the identical call behind it is a new action and gets a card of its own.
    const second = await scenario.waitForBotMessage((message) => isCard(message) && message.messageId !== first.messageId, 'a second card for the identical call');
    expect(deploy.runs).toEqual(['prod']);
    expect((await scenario.testApp.app.store.namespace('approvals').entries()).length).toBe(2);

    await person.sendCallback(person.makeCallbackQuery(buttonData(second, /Deny/), { message: { message_id: second.messageId } }));
    const third = await scenario.waitForBotMessage((message) => isCard(message) && message.messageId !== first.messageId && message.messageId !== second.messageId, 'a third card');
    await person.sendCallback(person.makeCallbackQuery(buttonData(third, /Deny/), { message: { message_id: third.messageId } }));
    await scenario.waitForBotMessage((message) => message.text.startsWith('after:'), 'the turn to finish');
    expect(deploy.runs).toEqual(['prod']);
  });
});

async function expectEventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
