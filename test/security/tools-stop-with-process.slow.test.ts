import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgentEnvironment } from '../demo/create-agent-environment.js';
import { type AgentProcess, startAgentProcess } from '../demo/start-agent-process.js';
import { findProcesses } from '../fakes/find-processes.js';
import { ensureBuilt, repositoryRoot } from '../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { waitFor } from '../fakes/start-test-app.js';
import { startTelegramEmulator, type TelegramEmulator } from '../fakes/telegram-emulator.js';

const token = '123456789:AAsecuritySuiteTokenForTheEmulator';
const userId = 1001;

beforeAll(() => {
  ensureBuilt();
}, 180_000);

describe('tools stop with the process (an approved exec never outlives the agent)', () => {
  let emulator: TelegramEmulator | undefined;
  let model: ScriptedModelServer | undefined;
  let agent: AgentProcess | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await agent?.stop(2000);
    await emulator?.stop();
    await model?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  /** Starts the compiled agent on the Telegram emulator, asks for a long command, presses Approve, and waits until it runs. */
  async function startLongApprovedExec(sleepSeconds: string): Promise<AgentProcess> {
    emulator = await startTelegramEmulator();
    model = await createScriptedModelServer();
    folder = mkdtempSync(join(tmpdir(), 'echo-stop-'));
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, 'tools:\n  profile: full\napprovals:\n  explain: false\n');
    model.enqueue({ toolCalls: [{ name: 'exec', arguments: { command: `sleep ${sleepSeconds}; echo done > marker`, timeoutSec: 120 } }] });
    const started = await startAgentProcess({
      repositoryRoot,
      configFile,
      environment: createAgentEnvironment({
        repositoryRoot,
        inherited: process.env,
        values: {
          TELEGRAM_BOT_TOKEN: token,
          TELEGRAM_API_ROOT: emulator.apiRoot,
          TELEGRAM_ALLOW_FROM: String(userId),
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: 'sk-test',
          ECHO_DATA_DIR: join(folder, 'data'),
          GATEWAY_PORT: '0',
          ECHO_LOG_LEVEL: 'warn',
        },
      }),
    });
    agent = started;
    const client = emulator.server.getClient(token, { userId, chatId: userId, type: 'private' });
    await client.sendMessage(client.makeMessage('build it, it takes a while'));
    const current = emulator;
    const card = await waitFor(() => current.botMessages(token).find((message) => (message.keyboard?.length ?? 0) > 0), 'the approval card', 20_000);
    const approve = card.keyboard?.flat().find((button) => /Approve/.test(button.text));
    if (approve === undefined) throw new Error('the card has no Approve button');
    await client.sendCallback(client.makeCallbackQuery(approve.callback_data, { message: { message_id: card.messageId } }));
    // The sleep itself, not the launcher, env or bwrap whose command lines name it too: a kill before bwrap has set
    // its parent-death signal would orphan the sandbox, and that start-up window is not what this suite tests.
    await waitFor(async () => (await findProcesses(sleepSeconds, { program: 'sleep' })).length > 0, 'the approved command to run', 20_000);
    return started;
  }

  it('SIGTERM during an approved long exec: the agent exits and no process of the command survives', async () => {
    const running = await startLongApprovedExec('30.7311');
    const stopped = await running.stop(15_000);
    expect(stopped).toMatchObject({ code: 0, killed: false });
    expect(await findProcesses('sleep 30.7311')).toEqual([]);
  }, 90_000);

  it('SIGKILL of the agent: bwrap --die-with-parent takes the sandbox and the command down', async () => {
    const running = await startLongApprovedExec('30.7312');
    process.kill(running.pid, 'SIGKILL');
    await running.exited;
    // The kernel ends the sandbox's PID namespace once bwrap sees its parent die.
    await waitFor(async () => (await findProcesses('sleep 30.7312')).length === 0, 'the sandboxed command to end with the agent', 20_000);
    expect(await findProcesses('sleep 30.7312')).toEqual([]);
  }, 90_000);
});
