import { TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { answerOf, asTask, connectA2aClient, statusTextOf, textRequest } from '../../fakes/a2a-test-client.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { gatewayOf } from '../../fakes/webhook-client.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { buttonData, createPublishTool } from './a2a-caller-world.js';

const callerKey = 'caller-secret-0123456789abcdefgh';

const yaml = [
  'approvals:',
  '  explain: false',
  '  route: approvers',
  'channels:',
  '  a2a-server:',
  '    keys:',
  `      - { name: caller, secret: ${callerKey}, tools: { alsoAllow: [publish_post] } }`,
].join('\n');

let scenario: TelegramScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

describe('an A2A task whose turn needs a person', () => {
  it('goes input-required while the card waits in the approver’s chat, completes once approved there, and reads back after a restart', async () => {
    const publish = createPublishTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml, extraTools: [publish.tool] });
    scenario.model.enqueue({ toolCalls: [{ name: 'publish_post', arguments: { title: 'launch' } }] }, { text: 'published launch for you' });
    const client = await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey);

    const waiting = asTask(await client.sendMessage(textRequest('publish the launch post')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusTextOf(waiting)).toContain('Waiting for a person');
    expect(publish.runs).toEqual([]);

    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    expect(card.chatId).toBe('1001');
    const approver = scenario.client({ userId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));

    const done = await waitFor(async () => {
      const task = await client.getTask({ tenant: '', id: waiting.id });
      return task.status?.state === TaskState.TASK_STATE_COMPLETED ? task : undefined;
    }, 'the task to complete');
    expect(answerOf(done)).toBe('published launch for you');
    expect(publish.runs).toEqual(['launch']);

    await scenario.restartApp();
    const afterRestart = await (await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey)).getTask({ tenant: '', id: waiting.id });
    expect(afterRestart.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(afterRestart)).toBe('published launch for you');
  });
});
