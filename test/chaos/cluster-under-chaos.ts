import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentEnvironment } from '../demo/create-agent-environment.js';
import { type AgentProcess, startAgentProcess } from '../demo/start-agent-process.js';
import { createScratchDatabase } from '../contracts/scratch-postgres.js';
import { repositoryRoot } from '../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { type EmulatedBotMessage, findFreePort, startTelegramEmulator, type TelegramEmulator } from '../fakes/telegram-emulator.js';
import { startTelegramFaultProxy, type TelegramFaultProxy } from '../fakes/telegram-fault-proxy.js';

/** The bot token of the chaos runs (the emulator accepts any). */
export const chaosToken = '123456789:AAclusterChaosTokenForTheEmulator';

/** A bot message with the time the test first saw it. */
export type SeenMessage = EmulatedBotMessage & { readonly seenAt: number };

/** N echo-agent processes on one scratch PostgreSQL database, one Telegram emulator (behind a recording proxy) and one scripted model. */
export type ClusterUnderChaos = {
  readonly emulator: TelegramEmulator;
  readonly proxy: TelegramFaultProxy;
  readonly model: ScriptedModelServer;
  readonly databaseUrl: string;
  readonly workFolder: string;
  /** Instance names (`instance-1`...). */
  readonly names: readonly string[];
  start(name: string): Promise<AgentProcess>;
  /** SIGKILL; resolves once the process is gone. */
  kill(name: string): Promise<void>;
  isRunning(name: string): boolean;
  /** Each bot message (edits merged) with when the watcher first saw it. */
  seen(): readonly SeenMessage[];
  close(): Promise<void>;
};

/** Starts the database, emulator, proxy and model; instances start with `start(name)`. */
export async function createClusterUnderChaos(options: { readonly instances: number; readonly yaml: (workFolder: string) => string; readonly allowFrom: string; readonly approvers: string }): Promise<ClusterUnderChaos> {
  const workFolder = mkdtempSync(join(tmpdir(), 'echo-chaos-'));
  const database = await createScratchDatabase();
  const emulator = await startTelegramEmulator();
  const proxy = await startTelegramFaultProxy(emulator.apiRoot, { honourOffsets: true });
  const model = await createScriptedModelServer({ model: 'chaos-model' });
  const configFile = join(workFolder, 'chaos.yaml');
  writeFileSync(configFile, options.yaml(workFolder));
  const names = Array.from({ length: options.instances }, (_, index) => `instance-${index + 1}`);
  const running = new Map<string, AgentProcess>();
  const environments = new Map<string, Record<string, string>>();
  for (const name of names) {
    const dataDir = join(workFolder, name);
    mkdirSync(dataDir, { recursive: true });
    environments.set(
      name,
      createAgentEnvironment({
        repositoryRoot,
        inherited: process.env,
        values: {
          ECHO_DATA_DIR: dataDir,
          ECHO_LOG_LEVEL: 'warn',
          ECHO_STORAGE_URL: database.url,
          TELEGRAM_BOT_TOKEN: chaosToken,
          TELEGRAM_API_ROOT: await proxy.addInstance(name),
          TELEGRAM_ALLOW_FROM: options.allowFrom,
          TELEGRAM_APPROVERS: options.approvers,
          OPENAI_BASE_URL: model.url,
          // One key per instance: the scripted model tells from it which instance asks.
          OPENAI_API_KEY: `chaos-key-${name}`,
          ECHO_MODEL: 'chaos-model',
          WEBHOOK_PORT: String(await findFreePort()),
        },
      }),
    );
  }

  // The emulator keeps no times: a watcher notes when each message (and each edit) first appears.
  const seen = new Map<string, SeenMessage>();
  const watcher = setInterval(() => {
    for (const message of emulator.botMessages(chaosToken)) {
      const key = `${message.chatId}:${message.messageId}:${message.text}`;
      if (!seen.has(key)) seen.set(key, { ...message, seenAt: Date.now() });
    }
  }, 50);

  return {
    emulator,
    proxy,
    model,
    databaseUrl: database.url,
    workFolder,
    names,
    async start(name) {
      if (running.has(name)) throw new Error(`${name} is already running`);
      const environment = environments.get(name);
      if (!environment) throw new Error(`no instance ${name}`);
      const agent = await startAgentProcess({ repositoryRoot, environment, configFile, readyTimeoutMs: 60_000 });
      running.set(name, agent);
      return agent;
    },
    async kill(name) {
      const agent = running.get(name);
      if (!agent) return;
      running.delete(name);
      try {
        process.kill(agent.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await agent.exited;
    },
    isRunning: (name) => running.has(name),
    seen: () => [...seen.values()],
    async close() {
      clearInterval(watcher);
      await Promise.all([...running.values()].map((agent) => agent.stop(10_000)));
      running.clear();
      await proxy.close();
      await emulator.stop();
      await model.close();
      await database.drop();
      rmSync(workFolder, { recursive: true, force: true });
    },
  };
}
