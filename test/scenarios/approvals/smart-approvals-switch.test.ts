import { afterEach, describe, expect, it } from 'vitest';
import { isCard, startSmartScenario, smartModel } from '../../fakes/smart-approvals-world.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

let scenario: TelegramScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

describe('smart approvals: the per-person switch, the list, and the reach of one approval', () => {
  it('/smart off sends the person\'s calls straight to a card; /smart on brings the reviewer back; /approvals lists its decisions', async () => {
    const world = await startSmartScenario();
    scenario = world.scenario;
    scenario.model.setFallback(smartModel(() => ({ text: 'APPROVE: routine deploy' })));
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('/smart off'));
    await scenario.waitForBotMessage((message) => message.text.startsWith('Smart approvals off'), 'the switch');
    await person.sendMessage(person.makeMessage('deploy qa'));
    const card = await scenario.waitForBotMessage(isCard, 'a card');
    expect(world.reviewerRequests()).toEqual([]);
    const deny = card.keyboard?.flat().find((button) => /Deny/.test(button.text));
    await person.sendCallback(person.makeCallbackQuery(deny?.callback_data ?? '', { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.text.startsWith('done: Not run'), 'the denied turn');

    await person.sendMessage(person.makeMessage('/smart on'));
    await scenario.waitForBotMessage((message) => message.text.startsWith('Smart approvals on'), 'the switch back');
    await person.sendMessage(person.makeMessage('deploy dev'));
    await scenario.waitForBotMessage((message) => message.text === 'done: deployed to dev', 'the reviewed deploy');
    expect(world.deploy.runs).toEqual(['dev']);

    await person.sendMessage(person.makeMessage('/approvals'));
    const list = await scenario.waitForBotMessage((message) => message.text.includes('Recent reviewer decisions'), 'the list');
    expect(list.text).toContain('✔ deploy: Deploy the service to dev — routine deploy');
  });

  it('an approval covers exactly one call: an identical call right behind it is reviewed again, and may get a card', async () => {
    const world = await startSmartScenario();
    scenario = world.scenario;
    expect(scenario.testApp.app.startupLines).toContain('approvals: smart (reviewer: the primary model)');
    let reviews = 0;
    scenario.model.enqueue({ toolCalls: [1, 2].map(() => ({ name: 'deploy', arguments: { target: 'prod' } })) });
    scenario.model.setFallback(
      smartModel(() => {
        reviews += 1;
        return { text: reviews === 1 ? 'APPROVE: one deploy' : 'ESCALATE: a second identical deploy' };
      }),
    );
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('deploy twice'));
    const card = await scenario.waitForBotMessage(isCard, 'a card for the second call');
    expect(card.text).toContain('Reviewer: a second identical deploy');
    expect(world.deploy.runs).toEqual(['prod']);
    expect(world.reviewerRequests()).toHaveLength(2);
  });

  it('/smart is for approvers only, and cannot turn the reviewer on where the config says manual', async () => {
    const world = await startSmartScenario({ approvers: '2002' });
    scenario = world.scenario;
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('/smart off'));
    await scenario.waitForBotMessage((message) => message.text === 'Only approvers can switch smart approvals.', 'the refusal');
    await scenario.stop();
    scenario = undefined;

    scenario = await startTelegramScenario({ allowFrom: '1001' });
    const again = scenario.client({ userId: 1001 });
    await again.sendMessage(again.makeMessage('/smart on'));
    await scenario.waitForBotMessage((message) => message.text === 'Smart approvals are not allowed here (approvals.mode is manual).', 'the refusal in manual mode');
  });
});
