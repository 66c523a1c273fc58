import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolDefinition } from '../../src/registry/define-tool.js';
import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient.js';
import { createScriptedModelServer, type ScriptedModelServer } from './scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from './start-test-app.js';
import { type EmulatedBotMessage, startTelegramEmulator, type TelegramEmulator } from './telegram-emulator.js';
import { startTelegramFaultProxy, type TelegramFaultProxy } from './telegram-fault-proxy.js';

/** The token every scenario bot uses (the emulator accepts any). */
export const scenarioToken = '123456789:AAtelegramScenarioTokenForTheEmulator';

/** Options of a Telegram scenario: who is allowed, and extra YAML merged over default.yaml. */
export type TelegramScenarioOptions = {
  readonly allowFrom?: string;
  readonly approvers?: string;
  /** YAML text (e.g. `approvals:\n  explain: false`), written to a temporary file given as --config. */
  readonly yaml?: string;
  readonly extraTools?: readonly ToolDefinition[];
  /** How often the app sweeps (expiry, resumptions, unfinished events); default the app's 15 s. */
  readonly sweepEveryMs?: number;
  /** More variables for the app, given the scripted model (e.g. its URL as the transcription endpoint). */
  readonly environment?: (model: ScriptedModelServer) => Readonly<Record<string, string>>;
  /** The app's clock (budgets' days and months, approval expiry); default the real one. */
  readonly now?: () => Date;
};

/** The emulator, the scripted model and the app, wired like `npm start`. */
export type TelegramScenario = {
  readonly emulator: TelegramEmulator;
  /** Sits between the bot and the emulator: records every Bot API call and injects faults. */
  readonly proxy: TelegramFaultProxy;
  readonly model: ScriptedModelServer;
  /** The running app (a new one after `restartApp`). */
  readonly testApp: TestApp;
  /** Stops the app and starts a new one over the same data folder and configuration (a process restart). */
  restartApp(): Promise<TestApp>;
  /** A person in a chat (private by default: chatId = userId). */
  client(options: { readonly userId: number; readonly chatId?: number; readonly type?: 'private' | 'group' | 'supergroup'; readonly userName?: string }): TelegramClient;
  botMessages(chatId?: number): EmulatedBotMessage[];
  /** Waits for a bot message matching `check` (edits included). */
  waitForBotMessage(check: (message: EmulatedBotMessage) => boolean, what: string, timeoutMs?: number): Promise<EmulatedBotMessage>;
  /** Model requests made so far (chat completions only). */
  modelRequests(): ScriptedModelServer['requests'];
  stop(): Promise<void>;
};

/** Starts the emulator (behind the fault proxy), the scripted model server and the app with TELEGRAM_* variables pointing at them. */
export async function startTelegramScenario(options: TelegramScenarioOptions = {}): Promise<TelegramScenario> {
  const emulator = await startTelegramEmulator();
  const proxy = await startTelegramFaultProxy(emulator.apiRoot);
  const model = await createScriptedModelServer();
  let configDir: string | undefined;
  let configFile: string | undefined;
  if (options.yaml !== undefined) {
    configDir = mkdtempSync(join(tmpdir(), 'echo-telegram-config-'));
    configFile = join(configDir, 'scenario.yaml');
    writeFileSync(configFile, options.yaml);
  }
  const appOptions = {
    configFile,
    extraTools: options.extraTools,
    sweepEveryMs: options.sweepEveryMs,
    now: options.now,
    environment: {
      TELEGRAM_BOT_TOKEN: scenarioToken,
      TELEGRAM_API_ROOT: proxy.apiRoot,
      TELEGRAM_ALLOW_FROM: options.allowFrom ?? '',
      TELEGRAM_APPROVERS: options.approvers ?? '',
      OPENAI_BASE_URL: model.url,
      // The gateway is always on in server mode: an ephemeral port keeps parallel scenarios apart.
      GATEWAY_PORT: '0',
      ...options.environment?.(model),
    },
  };
  let testApp = await startTestApp(appOptions);
  const botMessages = (chatId?: number) => emulator.botMessages(scenarioToken, chatId);
  return {
    emulator,
    proxy,
    model,
    get testApp() {
      return testApp;
    },
    async restartApp() {
      const dataDir = testApp.dataDir;
      await testApp.stop({ keepData: true });
      testApp = await startTestApp({ ...appOptions, dataDir });
      return testApp;
    },
    client: ({ userId, chatId, type, userName }) =>
      emulator.server.getClient(scenarioToken, { userId, chatId: chatId ?? userId, type: type ?? 'private', userName: userName ?? `user${userId}`, firstName: `User ${userId}` }),
    botMessages,
    waitForBotMessage: (check, what, timeoutMs) => waitFor(() => botMessages().find(check), what, timeoutMs),
    modelRequests: () => model.requests.filter((request) => request.path === '/v1/chat/completions'),
    async stop() {
      const dataDir = testApp.dataDir;
      await testApp.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await proxy.close();
      await emulator.stop();
      await model.close();
      if (configDir) rmSync(configDir, { recursive: true, force: true });
    },
  };
}
