import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentEnvironment } from '../../demo/create-agent-environment.js';
import { type AgentProcess, startAgentProcess } from '../../demo/start-agent-process.js';
import { answerOf, connectA2aClient } from '../../fakes/a2a-test-client.js';
import { ensureBuilt, repositoryRoot } from '../../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { findFreePort, startTelegramEmulator, type TelegramEmulator } from '../../fakes/telegram-emulator.js';

const callerToken = '111111111:AAcallerAgentTokenForTheEmulatorX';
const calleeToken = '222222222:AAcalleeAgentTokenForTheEmulatorX';
const person = 1001;
const approver = 2002;
const a2aKey = 'caller-agent-secret-0123456789abcdef';

let folder: string;
let emulator: TelegramEmulator;
let callerModel: ScriptedModelServer;
let calleeModel: ScriptedModelServer;
let caller: AgentProcess | undefined;
let callee: AgentProcess | undefined;
let calleePort: number;

beforeAll(() => {
  ensureBuilt();
}, 180_000);

afterAll(async () => {
  await caller?.stop(2000);
  await callee?.stop(2000);
  await emulator?.stop();
  await callerModel?.close();
  await calleeModel?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

function environment(values: Readonly<Record<string, string>>): Record<string, string> {
  return createAgentEnvironment({ repositoryRoot, inherited: process.env, values: { OPENAI_API_KEY: 'sk-test', ECHO_LOG_LEVEL: 'warn', TELEGRAM_API_ROOT: emulator.apiRoot, ...values } });
}

function startCallee(): Promise<AgentProcess> {
  return startAgentProcess({
    repositoryRoot,
    configFile: join(folder, 'callee.yaml'),
    environment: environment({ TELEGRAM_BOT_TOKEN: calleeToken, TELEGRAM_ALLOW_FROM: String(approver), TELEGRAM_APPROVERS: String(approver), OPENAI_BASE_URL: calleeModel.url, ECHO_DATA_DIR: join(folder, 'callee-data'), GATEWAY_PORT: String(calleePort) }),
  });
}

describe('two echo-agent processes talking A2A', () => {
  it("process 1's model calls a2a__peer; process 2's turn needs approval (input-required), is approved by a button in its Telegram chat, completes, and process 1 answers with the result; tasks/get answers after process 2 restarts", async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-a2a-two-'));
    emulator = await startTelegramEmulator();
    calleePort = await findFreePort();
    calleeModel = await createScriptedModelServer();
    calleeModel.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'report.txt', content: 'quarterly numbers' } }] }, { text: 'the report is written' });
    callerModel = await createScriptedModelServer({
      fallback: (body, context) => {
        const last = body.messages?.at(-1);
        if (last?.role === 'tool') return { text: `the peer says: ${String(last.content)}` };
        if (/ask the peer/.test(context.lastUserText)) return { toolCalls: [{ name: 'a2a__peer', arguments: { message: 'write the quarterly report' } }] };
        return { text: `echo: ${context.lastUserText}` };
      },
    });
    writeFileSync(
      join(folder, 'callee.yaml'),
      ['approvals:', '  explain: false', '  route: approvers', '  require: [write_file]', 'channels:', '  a2a-server:', '    keys:', `      - { name: caller, secret: ${a2aKey}, tools: { alsoAllow: [write_file] } }`].join('\n'),
    );
    writeFileSync(
      join(folder, 'caller.yaml'),
      ['tools:', '  alsoAllow: [a2a__peer]', 'a2a:', '  peers:', '    peer:', `      url: http://127.0.0.1:${calleePort}`, `      headers: { Authorization: "Bearer ${a2aKey}" }`, '      risk: read_only', '      timeoutSeconds: 120'].join('\n'),
    );
    callee = await startCallee();
    caller = await startAgentProcess({
      repositoryRoot,
      configFile: join(folder, 'caller.yaml'),
      environment: environment({ TELEGRAM_BOT_TOKEN: callerToken, TELEGRAM_ALLOW_FROM: String(person), OPENAI_BASE_URL: callerModel.url, ECHO_DATA_DIR: join(folder, 'caller-data'), GATEWAY_PORT: '0' }),
    });

    const personClient = emulator.server.getClient(callerToken, { userId: person, chatId: person, type: 'private' });
    await personClient.sendMessage(personClient.makeMessage('please ask the peer for the report'));

    const card = await waitFor(() => emulator.botMessages(calleeToken, approver).find((message) => (message.keyboard?.length ?? 0) > 0), 'the approval card in process 2’s chat', 30_000);
    expect(card.text).toContain('report.txt');
    // Process 1's call waits on the peer's input-required task: no tool result has reached its model yet.
    expect(callerModel.requests.some((request) => (request.body?.messages ?? []).some((message) => message.role === 'tool'))).toBe(false);
    const approve = card.keyboard?.flat().find((button) => /Approve/.test(button.text));
    if (approve === undefined) throw new Error('the card has no Approve button');
    const approverClient = emulator.server.getClient(calleeToken, { userId: approver, chatId: approver, type: 'private' });
    await approverClient.sendCallback(approverClient.makeCallbackQuery(approve.callback_data, { message: { message_id: card.messageId } }));

    const answer = await waitFor(() => emulator.botMessages(callerToken, person).find((message) => message.text.includes('the peer says:')), 'process 1’s answer', 30_000);
    expect(answer.text).toContain('the report is written');
    const taskId = /\[task ([0-9a-f-]{36}) of the agent "peer"\]/.exec(answer.text)?.[1];
    if (taskId === undefined) throw new Error(`no task id in the answer: ${answer.text}`);

    await callee.stop();
    callee = await startCallee();
    const task = await (await connectA2aClient(`http://127.0.0.1:${calleePort}`, a2aKey)).getTask({ tenant: '', id: taskId });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(task)).toBe('the report is written');
  }, 180_000);
});
