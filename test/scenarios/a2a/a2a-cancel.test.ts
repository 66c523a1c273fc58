import { TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import type { SuspendedTurn } from '../../../src/approvals/suspended-turn.js';
import type { TurnFinished } from '../../../src/events/outbox.js';
import { asTask, connectA2aClient, textRequest } from '../../fakes/a2a-test-client.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { gatewayOf } from '../../fakes/webhook-client.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { buttonData, createPublishTool, createSlowTool } from './a2a-caller-world.js';

const callerKey = 'caller-secret-0123456789abcdefgh';
const intruderKey = 'intruder-secret-0123456789abcdefg';

const yaml = [
  'approvals:',
  '  explain: false',
  '  route: approvers',
  'channels:',
  '  a2a-server:',
  '    keys:',
  `      - { name: caller, secret: ${callerKey}, tools: { alsoAllow: [publish_post, slow_report] } }`,
].join('\n');

/** Turn reports of the A2A sessions, as the core emitted them. */
function recordTurns(scenario: TelegramScenario): TurnFinished[] {
  const reports: TurnFinished[] = [];
  scenario.testApp.app.telemetry.onTurnFinished((report) => {
    if (report.sessionKey.startsWith('a2a-server:')) reports.push(report);
  });
  return reports;
}

let scenario: TelegramScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

describe('tasks/cancel stops the task’s work', () => {
  it('a task whose tool is running: the tool’s abort signal fires, the model is not asked again, nothing is answered and the task stays canceled', async () => {
    const slow = createSlowTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml, extraTools: [slow.tool] });
    scenario.model.enqueue({ toolCalls: [{ name: 'slow_report', arguments: { topic: 'sales' } }] }, { text: 'here is the report' });
    const turns = recordTurns(scenario);
    const client = await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey);

    const submitted = asTask(await client.sendMessage(textRequest('build the sales report', { returnImmediately: true })));
    await waitFor(() => slow.seen.started > 0, 'the tool to start');
    const canceled = await client.cancelTask({ tenant: '', id: submitted.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    await waitFor(() => slow.seen.aborted > 0, 'the tool’s abort signal');
    await waitFor(() => turns.some((report) => report.status === 'cancelled'), 'the turn to end cancelled');
    await scenario.testApp.app.bus.idle();
    expect(scenario.modelRequests()).toHaveLength(1);
    const task = await client.getTask({ tenant: '', id: submitted.id });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(task.artifacts).toEqual([]);
    expect(scenario.botMessages()).toEqual([]);
  });

  it('a task whose model call is held: the call is aborted (the turn ends without its answer) and the task stays canceled', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml });
    // Held far past the test's own timeout: only an abort ends this call in time.
    scenario.model.enqueue({ text: 'a late answer', delayMs: 600_000 });
    const turns = recordTurns(scenario);
    const client = await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey);

    const submitted = asTask(await client.sendMessage(textRequest('think hard', { returnImmediately: true })));
    await waitFor(() => scenario?.modelRequests().length === 1, 'the model call');
    await client.cancelTask({ tenant: '', id: submitted.id, metadata: undefined });

    await waitFor(() => turns.find((report) => report.status === 'cancelled'), 'the turn to end cancelled');
    await scenario.testApp.app.bus.idle();
    expect(turns.map((report) => report.status)).toEqual(['cancelled']);
    const task = await client.getTask({ tenant: '', id: submitted.id });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(task.artifacts).toEqual([]);
  });

  it('a task waiting on an approval card: the card is edited as cancelled, a later Approve is answered so and runs nothing, also after a restart', async () => {
    const publish = createPublishTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml, extraTools: [publish.tool] });
    scenario.model.enqueue({ toolCalls: [{ name: 'publish_post', arguments: { title: 'draft' } }] }, { text: 'published draft' });
    const client = await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey);
    const waiting = asTask(await client.sendMessage(textRequest('publish the draft')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    const approve = buttonData(card, /Approve/);

    const canceled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const edited = await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Cancelled by caller'), 'the card edited as cancelled');
    expect(edited.text).toContain('nothing was run');
    expect(edited.keyboard ?? []).toEqual([]);

    await scenario.restartApp();
    expect(await scenario.testApp.app.runtime.resumeSettled()).toBe(0);
    const approver = scenario.client({ userId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(approve, { message: { message_id: card.messageId } }));
    const answer = await waitFor(() => scenario?.proxy.callsOf('answerCallbackQuery').find((call) => String(call.body.text ?? '').includes('Cancelled by caller')), 'the answer to the late press');
    expect(answer.body.show_alert).toBe(true);
    await scenario.testApp.app.bus.idle();

    expect(publish.runs).toEqual([]);
    expect(scenario.modelRequests()).toHaveLength(1);
    const afterRestart = await (await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey)).getTask({ tenant: '', id: waiting.id });
    expect(afterRestart.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('a task waiting on an approval card, canceled after a restart (its request no longer open here): the card is closed all the same and a press runs nothing', async () => {
    const publish = createPublishTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml, extraTools: [publish.tool] });
    scenario.model.enqueue({ toolCalls: [{ name: 'publish_post', arguments: { title: 'draft' } }] }, { text: 'published draft' });
    const waiting = asTask(await (await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey)).sendMessage(textRequest('publish the draft')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    const approve = buttonData(card, /Approve/);

    // The SDK only marks such a task canceled in the store: the card must be closed by echo-agent all the same.
    await scenario.restartApp();
    const client = await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey);
    const canceled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const edited = await scenario.waitForBotMessage((message) => message.messageId === card.messageId && message.text.includes('Cancelled by caller'), 'the card edited as cancelled');
    expect(edited.keyboard ?? []).toEqual([]);

    const approver = scenario.client({ userId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(approve, { message: { message_id: card.messageId } }));
    await waitFor(() => scenario?.proxy.callsOf('answerCallbackQuery').find((call) => String(call.body.text ?? '').includes('Cancelled by caller')), 'the answer to the late press');
    await scenario.testApp.app.bus.idle();
    expect(publish.runs).toEqual([]);
    expect(scenario.modelRequests()).toHaveLength(1);
    expect((await client.getTask({ tenant: '', id: waiting.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('a cancel from another caller key changes nothing: the task and its card stay as they were', async () => {
    const publish = createPublishTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml: `${yaml}\n      - { name: intruder, secret: ${intruderKey} }`, extraTools: [publish.tool] });
    scenario.model.enqueue({ toolCalls: [{ name: 'publish_post', arguments: { title: 'draft' } }] }, { text: 'published draft' });
    const waiting = asTask(await (await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey)).sendMessage(textRequest('publish the draft')));
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    await scenario.restartApp();

    const intruder = await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, intruderKey);
    await expect(intruder.cancelTask({ tenant: '', id: waiting.id, metadata: undefined })).rejects.toThrow();
    const approver = scenario.client({ userId: 1001 });
    await approver.sendCallback(approver.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));
    await waitFor(() => (publish.runs.length === 1 ? true : undefined), 'the approved call to run');
    expect(scenario.botMessages().some((message) => message.messageId === card.messageId && message.text.includes('Cancelled'))).toBe(false);
  });

  it('a cancel cut short after the approval was closed (before its suspended turn was removed) still never resumes that turn after a restart', async () => {
    const publish = createPublishTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml, extraTools: [publish.tool] });
    scenario.model.enqueue({ toolCalls: [{ name: 'publish_post', arguments: { title: 'draft' } }] }, { text: 'published draft' });
    const client = await connectA2aClient(gatewayOf(scenario.testApp.app).baseUrl, callerKey);
    expect(asTask(await client.sendMessage(textRequest('publish the draft'))).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const store = scenario.testApp.app.store;
    const [approvalId] = (await store.namespace<string[]>('approvals-index').get('pending')) ?? [];
    if (approvalId === undefined) throw new Error('no pending approval');
    // The state a process leaves when it dies right after closing the approval.
    await store.namespace<PendingApproval>('approvals').update(approvalId, (current) => (current ? { ...current, status: 'cancelled', decidedBy: 'caller', decidedAt: new Date().toISOString() } : current));
    expect(await store.namespace<SuspendedTurn>('suspended-turns').get(approvalId)).toBeDefined();

    await scenario.restartApp();
    expect(await scenario.testApp.app.runtime.resumeSettled()).toBe(0);
    await scenario.testApp.app.bus.idle();
    expect(await scenario.testApp.app.store.namespace<SuspendedTurn>('suspended-turns').get(approvalId)).toBeUndefined();
    expect(publish.runs).toEqual([]);
    expect(scenario.modelRequests()).toHaveLength(1);
  });
});
