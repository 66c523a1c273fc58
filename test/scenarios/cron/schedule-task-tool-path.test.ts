import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedHandler, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { createConfigWriter, cronOf, modelCallsWith, storedJob, waitForFinishedRun } from './cron-test-helpers.js';

let model: ScriptedModelServer;
const running: TestApp[] = [];
let toolArguments: Record<string, unknown> = {};
const configs = createConfigWriter();

/** "schedule it" → a schedule_task call; after a tool result → `done: <result>`; a scheduled prompt → `ran: <prompt>`. */
const schedulingChatModel: ScriptedHandler = (body, context) => {
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
  const scheduled = /^\[Scheduled task [^\]]+\] ([\s\S]*)$/.exec(context.lastUserText);
  if (scheduled) return { text: `ran: ${scheduled[1]}` };
  if (context.lastUserText.includes('schedule it')) return { toolCalls: [{ name: 'schedule_task', arguments: toolArguments }] };
  return { text: `echo: ${context.lastUserText}` };
};

beforeAll(async () => {
  model = await createScriptedModelServer({ fallback: schedulingChatModel });
});
afterAll(async () => {
  await model.close();
  configs.cleanup();
});
afterEach(async () => {
  while (running.length > 0) await running.pop()?.stop();
});

async function scheduleThroughChat(argumentsForTool: Record<string, unknown>) {
  toolArguments = argumentsForTool;
  const test = await startTestApp({ mode: 'chat', configFile: configs.write('approvals:\n  explain: false\n'), environment: { OPENAI_BASE_URL: model.url } });
  running.push(test);
  const type = (line: string) => test.terminalInput.write(`${line}\n`);
  type('please schedule it');
  const approvalId = await waitFor(() => /Id (\w+)\)/.exec(test.terminalText())?.[1], 'the approval card');
  // Nothing is scheduled before a person approves.
  expect(await cronOf(test.app).scheduler.list()).toEqual([]);
  type(`/approve ${approvalId}`);
  await waitFor(() => test.terminalText().includes('done: Scheduled task task-'), 'the tool result after approval');
  const [job] = await cronOf(test.app).scheduler.list();
  if (!job) throw new Error('no job was created');
  const approval = await test.app.store.namespace<{ argumentsHash: string }>('approvals').get(approvalId);
  return { test, job, approval };
}

describe('schedule_task through the tool path: model → approval card → /approve → job → firing', () => {
  it('creates a job bound to the approved call, and its firing answers in the chat', async () => {
    const { test, job, approval } = await scheduleThroughChat({ schedule: '0 9 * * *', prompt: 'Summarise the news', timezone: 'Europe/Paris' });
    expect(test.terminalText()).toContain('Every 0 9 * * * (Europe/Paris): "Summarise the news"');
    expect(job).toMatchObject({ schedule: '0 9 * * *', timezone: 'Europe/Paris', prompt: 'Summarise the news', source: 'tool', createdBy: 'local', target: { channel: 'cli', chatId: 'local' } });
    // The job carries the hash of exactly the call the person approved.
    expect(job.approvedContentHash).toBe(approval?.argumentsHash);

    expect((await cronOf(test.app).runNow(job.id)).ok).toBe(true);
    await waitFor(() => test.terminalText().includes('ran: Summarise the news'), 'the scheduled answer in the chat');
    const stored = await waitForFinishedRun(test.app, job.id, 'the recorded run');
    expect(stored.lastRun).toMatchObject({ status: 'succeeded', delivered: true });
    expect(modelCallsWith(model, '[Scheduled task')).toBeGreaterThanOrEqual(1);
  });

  it('binds the hash the same way when the model leaves the time zone out', async () => {
    const { job, approval, test } = await scheduleThroughChat({ schedule: '30 7 * * 1-5', prompt: 'Check the build' });
    expect(job.timezone).toBe('UTC');
    expect(job.approvedContentHash).toBe(approval?.argumentsHash);
    expect((await storedJob(test.app, job.id))?.timezoneApproved).toBe(false);
  });
});
