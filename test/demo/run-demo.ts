import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createScriptedModelServer, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { findFreePort, startTelegramEmulator, type TelegramEmulator } from '../fakes/telegram-emulator.js';
import { createAgentEnvironment } from './create-agent-environment.js';
import { createDemoModel } from './create-demo-model.js';
import { createTranscript } from './create-transcript.js';
import { playConversation } from './play-conversation.js';
import { printBotChange } from './print-bot-change.js';
import { type AgentProcess, describeExit, startAgentProcess } from './start-agent-process.js';
import { localTimezone } from './wall-clock.js';
import { type BotMessageWatcher, watchBotMessages } from './watch-bot-messages.js';

// `npm run demo`: the whole product, offline. A Telegram Bot API emulator and a scripted OpenAI-compatible
// model run in this process; echo-agent runs as `node dist/src/app/main.js start`, exactly as `npm start` does.

// dist-demo/test/demo/run-demo.js → the repository root.
const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');
const botToken = '123456789:AAdemoTokenForTheLocalTelegramEmulator';
const you = { userId: 424242, userName: 'demo_user', firstName: 'Demo' };
const stranger = { userId: 777001, userName: 'stranger', firstName: 'Stranger' };
const reminderSeconds = 5;

/** Everything the demo started, so that any exit can take it down again. */
type Running = {
  workFolder?: string;
  emulator?: TelegramEmulator;
  model?: ScriptedModelServer;
  agent?: AgentProcess;
  watcher?: BotMessageWatcher;
};

async function runDemo(): Promise<number> {
  const started = performance.now();
  const transcript = createTranscript((text) => process.stdout.write(text));
  const running: Running = {};
  // Aborted by Ctrl+C (or SIGTERM), or by the agent exiting on its own: every wait stops at once.
  const stop = new AbortController();
  let interruptedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interruptedBy !== undefined) {
      // A second Ctrl+C: no more patience, but still nothing left behind.
      forceCleanup(running);
      process.exit(130);
    }
    interruptedBy = signal;
    process.stderr.write(`\n${signal === 'SIGINT' ? 'Ctrl+C' : signal}: stopping the demo and cleaning up...\n`);
    stop.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let failure: unknown;
  let sqliteFile: string | undefined;
  try {
    running.workFolder = mkdtempSync(join(tmpdir(), 'echo-demo-'));
    const dataDir = join(running.workFolder, 'data');
    // An overlay with no settings: given as --config, it keeps a developer's config/local.yaml out of the demo.
    const configFile = join(running.workFolder, 'demo.yaml');
    writeFileSync(configFile, '# echo-agent demo: no overrides. config/default.yaml and the environment say everything.\n');
    const timezone = localTimezone();

    running.emulator = await startTelegramEmulator();
    running.model = await createScriptedModelServer({ model: 'demo-model', fallback: createDemoModel({ timezone }) });
    const webhookPort = await findFreePort();
    stop.signal.throwIfAborted();

    transcript.line('echo-agent demo: the whole product, offline, in one command');
    transcript.line(`  Telegram Bot API emulator   ${running.emulator.apiRoot}  (telegram-test-api)`);
    transcript.line(`  scripted model              ${running.model.url}  (OpenAI-compatible, in this process)`);
    transcript.line(`  you                         Telegram user ${you.userId} (@${you.userName}), allowed and approver`);
    transcript.line(`  stranger                    Telegram user ${stranger.userId} (@${stranger.userName}), not allowed`);
    transcript.line('  echo-agent                  node dist/src/app/main.js start, starting...');

    const environment = createAgentEnvironment({
      repositoryRoot,
      inherited: process.env,
      values: {
        ECHO_DATA_DIR: dataDir,
        ECHO_LOG_LEVEL: 'warn',
        ECHO_TIMEZONE: timezone,
        TELEGRAM_BOT_TOKEN: botToken,
        TELEGRAM_API_ROOT: running.emulator.apiRoot,
        TELEGRAM_ALLOW_FROM: String(you.userId),
        TELEGRAM_APPROVERS: String(you.userId),
        OPENAI_BASE_URL: running.model.url,
        OPENAI_API_KEY: 'demo',
        ECHO_MODEL: 'demo-model',
        GATEWAY_PORT: String(webhookPort),
      },
    });
    const agent = await startAgentProcess({ repositoryRoot, environment, configFile, signal: stop.signal });
    running.agent = agent;
    transcript.line(`  echo-agent is up (pid ${agent.pid}, data in ${dataDir}); it printed:`);
    for (const line of agent.startupLines) transcript.line(`    ${line}`);
    sqliteFile = /^store: sqlite (.+)$/m.exec(agent.startupLines.join('\n'))?.[1];
    void agent.exited.then((exit) => {
      if (!stop.signal.aborted) stop.abort(new Error(`echo-agent exited in the middle of the demo (${describeExit(exit)}); its stderr:\n${agent.stderr().trim() || '(empty)'}`));
    });

    transcript.line();
    transcript.line('What the user saw in Telegram:');
    transcript.line();
    const emulator = running.emulator;
    const person = (who: typeof you) => ({
      client: emulator.server.getClient(botToken, { userId: who.userId, chatId: who.userId, type: 'private', userName: who.userName, firstName: who.firstName }),
      chatId: String(who.userId),
    });
    const yourChat = person(you);
    running.watcher = watchBotMessages({ client: yourChat.client, onChange: (change) => printBotChange(transcript, change) });
    await playConversation({ you: yourChat, stranger: person(stranger), watcher: running.watcher, model: running.model, transcript, signal: stop.signal, reminderSeconds });
    // Anything the bot sent after the last step still belongs in the transcript.
    await running.watcher.refresh();
    if (sqliteFile !== undefined && !existsSync(sqliteFile)) throw new Error(`the agent said its store is ${sqliteFile}, but there is no such file`);
  } catch (error) {
    failure = stop.signal.aborted ? stop.signal.reason : error;
  }
  // The agent may also have died after the last step and before the cleanup below.
  if (failure === undefined && stop.signal.aborted) failure = stop.signal.reason;

  const problems = await cleanup(running);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (interruptedBy !== undefined) {
    process.stderr.write(`demo interrupted: everything it started is stopped and its temporary folder removed${problems.length > 0 ? `, except:\n${problems.join('\n')}` : ''}.\n`);
    return 130;
  }
  if (failure !== undefined || problems.length > 0) {
    const reasons = [...(failure === undefined ? [] : [failure instanceof Error ? failure.message : String(failure)]), ...problems];
    process.stderr.write(`\ndemo failed after ${seconds} s:\n${reasons.map((reason) => `  - ${reason.split('\n').join('\n    ')}`).join('\n')}\n`);
    return 1;
  }
  const agentLog = running.agent?.stderr().trim() ?? '';
  if (agentLog !== '') {
    transcript.line();
    transcript.line("echo-agent's own log during the demo (level warn and above, on its stderr):");
    for (const line of agentLog.split('\n')) transcript.line(`    ${line}`);
  }
  transcript.line();
  const storePlace = sqliteFile === undefined ? (running.workFolder ?? 'a temporary folder') : dirname(sqliteFile);
  transcript.line(`demo finished in ${seconds} s: everything above ran through the real Telegram protocol, the real agent and a real SQLite file in ${storePlace}.`);
  transcript.line(`echo-agent (pid ${running.agent?.pid}) stopped with exit code 0; the emulator and the model server are closed; the temporary folder is removed.`);
  transcript.line('Next: your own bot and model in .env (README.md, "Telegram in five minutes"), then npm run doctor and npm start.');
  return 0;
}

/** Stops the agent (SIGTERM, expecting exit code 0), the watcher and both servers, and removes the temporary folder. Returns what went wrong. */
async function cleanup(running: Running): Promise<string[]> {
  const problems: string[] = [];
  await running.watcher?.stop();
  if (running.agent) {
    const agent = running.agent;
    const exit = await agent.stop();
    // An agent that exited on its own was reported when it happened: only a stop asked for here is judged here.
    if (exit.signalled && exit.killed) problems.push(`echo-agent did not stop within 15 s of SIGTERM and was killed; its stderr:\n${agent.stderr().trim() || '(empty)'}`);
    else if (exit.signalled && exit.code !== 0) problems.push(`echo-agent exited with ${describeExit(exit)} instead of 0 when it was stopped; its stderr:\n${agent.stderr().trim() || '(empty)'}`);
  }
  await running.model?.close().catch((error: unknown) => problems.push(`the model server did not close: ${String(error)}`));
  await running.emulator?.stop().catch((error: unknown) => problems.push(`the Telegram emulator did not close: ${String(error)}`));
  if (running.workFolder) rmSync(running.workFolder, { recursive: true, force: true });
  return problems;
}

/** The last resort on a second Ctrl+C: kill the agent and remove the folder, synchronously. */
function forceCleanup(running: Running): void {
  if (running.agent) {
    try {
      process.kill(running.agent.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  if (running.workFolder) rmSync(running.workFolder, { recursive: true, force: true });
}

runDemo().then(
  (code) => {
    process.exitCode = code;
    // Nothing should keep the process alive now; if something does, it must not hang the terminal.
    setTimeout(() => process.exit(code), 3000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
