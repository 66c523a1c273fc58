import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient.js';
import { createAgentEnvironment } from '../demo/create-agent-environment.js';
import { type AgentProcess, startAgentProcess } from '../demo/start-agent-process.js';
import { repositoryRoot } from '../fakes/run-compiled.js';
import { createScriptedModelServer, type RecordedRequest, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { waitFor } from '../fakes/start-test-app.js';
import { type EmulatedBotMessage, findFreePort, startTelegramEmulator, type TelegramEmulator } from '../fakes/telegram-emulator.js';
import { startTelegramFaultProxy, type TelegramFaultProxy } from '../fakes/telegram-fault-proxy.js';

/** The bot token every fault test uses (the emulator accepts any). */
export const faultToken = '123456789:AAfaultInjectionTokenForTheEmulator';

/** The one allowed user (and approver) of the fault tests. */
export const faultUser = 1001;

/** How long a fault test waits for something the agent should do; generous, since 2 cores run several tests. */
export const patientMs = 40_000;

/** Where and how the compiled agent runs. */
export type AgentUnderFaultOptions = {
  /** YAML given as `--config` (merged over config/default.yaml); a function gets the test's work folder. */
  readonly yaml?: string | ((workFolder: string) => string);
  /** Put the data folder here instead of a fresh temporary one (e.g. on a small tmpfs). */
  readonly dataDir?: string;
  /** Extra environment values (over the defaults this harness sets). */
  readonly environment?: Readonly<Record<string, string>>;
};

/**
 * echo-agent as `node dist/src/app/main.js start`, with a Telegram emulator behind a fault proxy that
 * acknowledges updates the way Telegram does, and a scripted OpenAI-compatible model. The process can be
 * killed with SIGKILL and started again over the same data folder.
 */
export type AgentUnderFault = {
  readonly emulator: TelegramEmulator;
  readonly proxy: TelegramFaultProxy;
  readonly model: ScriptedModelServer;
  readonly dataDir: string;
  /** A temporary folder of the test's own (workspace, counters...), removed at the end. */
  readonly workFolder: string;
  readonly webhookPort: number;
  /** The running process; throws when none runs. */
  agent(): AgentProcess;
  /** Starts the process (again) over the same data folder and waits for its ready line. */
  start(): Promise<AgentProcess>;
  /** SIGKILL: no handler runs, nothing is flushed. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait (a clean stop). */
  stop(): Promise<void>;
  client(userId?: number): TelegramClient;
  send(text: string, userId?: number): Promise<void>;
  /** Presses the button whose label matches on a card. */
  press(card: EmulatedBotMessage, label: RegExp, userId?: number): Promise<void>;
  botMessages(chatId?: number): EmulatedBotMessage[];
  waitForBotMessage(check: (message: EmulatedBotMessage) => boolean, what: string, timeoutMs?: number): Promise<EmulatedBotMessage>;
  /** Chat completion requests the model received, oldest first. */
  modelRequests(): RecordedRequest[];
  /** Stops everything this harness started and removes its folders. */
  close(): Promise<void>;
};

/** Starts the emulator, the proxy and the model (not the agent: call `start`). */
export async function createAgentUnderFault(options: AgentUnderFaultOptions = {}): Promise<AgentUnderFault> {
  const workFolder = mkdtempSync(join(tmpdir(), 'echo-fault-'));
  const dataDir = options.dataDir ?? join(workFolder, 'data');
  mkdirSync(dataDir, { recursive: true });
  const configFile = join(workFolder, 'fault.yaml');
  writeFileSync(configFile, typeof options.yaml === 'function' ? options.yaml(workFolder) : (options.yaml ?? '# no overrides\n'));
  const emulator = await startTelegramEmulator();
  const proxy = await startTelegramFaultProxy(emulator.apiRoot, { honourOffsets: true });
  const model = await createScriptedModelServer({ model: 'fault-model' });
  const webhookPort = await findFreePort();
  const environment = createAgentEnvironment({
    repositoryRoot,
    inherited: process.env,
    values: {
      ECHO_DATA_DIR: dataDir,
      ECHO_LOG_LEVEL: 'warn',
      TELEGRAM_BOT_TOKEN: faultToken,
      TELEGRAM_API_ROOT: proxy.apiRoot,
      TELEGRAM_ALLOW_FROM: String(faultUser),
      TELEGRAM_APPROVERS: String(faultUser),
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'fault-key',
      ECHO_MODEL: 'fault-model',
      GATEWAY_PORT: String(webhookPort),
      ...options.environment,
    },
  });
  let running: AgentProcess | undefined;
  const client = (userId = faultUser) => emulator.server.getClient(faultToken, { userId, chatId: userId, type: 'private', userName: `user${userId}`, firstName: `User ${userId}` });
  const botMessages = (chatId?: number) => emulator.botMessages(faultToken, chatId);

  return {
    emulator,
    proxy,
    model,
    dataDir,
    workFolder,
    webhookPort,
    agent() {
      if (!running) throw new Error('the agent is not running');
      return running;
    },
    async start() {
      if (running) throw new Error('the agent is already running');
      running = await startAgentProcess({ repositoryRoot, environment, configFile, readyTimeoutMs: patientMs });
      return running;
    },
    async kill() {
      const agent = running;
      if (!agent) return;
      running = undefined;
      try {
        process.kill(agent.pid, 'SIGKILL');
      } catch {
        // Already gone: the exit below resolves at once.
      }
      await agent.exited;
    },
    async stop() {
      const agent = running;
      if (!agent) return;
      running = undefined;
      await agent.stop(10_000);
    },
    client,
    async send(text, userId = faultUser) {
      const person = client(userId);
      await person.sendMessage(person.makeMessage(text));
    },
    async press(card, label, userId = faultUser) {
      const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
      if (!button) throw new Error(`no button ${label} on the card: ${JSON.stringify(card.keyboard)}`);
      const person = client(userId);
      await person.sendCallback(person.makeCallbackQuery(button.callback_data, { message: { message_id: card.messageId } }));
    },
    botMessages,
    waitForBotMessage: (check, what, timeoutMs = patientMs) => waitFor(() => botMessages().find(check), what, timeoutMs),
    modelRequests: () => model.requests.filter((request) => request.path === '/v1/chat/completions'),
    async close() {
      const agent = running;
      running = undefined;
      if (agent) await agent.stop(5000);
      await proxy.close();
      await emulator.stop();
      await model.close();
      rmSync(workFolder, { recursive: true, force: true });
    },
  };
}

/** The text of the last user message and of every tool result in a recorded model request. */
export function readRequest(request: RecordedRequest | undefined): { readonly toolResults: string[]; readonly userTexts: string[] } {
  const messages = request?.body?.messages ?? [];
  return {
    toolResults: messages.filter((message) => message.role === 'tool').map((message) => String(message.content)),
    userTexts: messages.filter((message) => message.role === 'user').map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))),
  };
}

/** Whether the last message of a model request is a tool result (the model is being asked to continue after a call). */
export function endsWithToolResult(request: { readonly messages?: readonly { readonly role: string }[] }): boolean {
  return request.messages?.at(-1)?.role === 'tool';
}
