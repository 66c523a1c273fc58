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
  /** SIGKILL, then `whileDead`, a pause of `deadForMs`, and the same instance started again; resolves to when it was killed (ms since the epoch). */
  killAndRestart(name: string, options: { readonly deadForMs: number; readonly whileDead?: () => Promise<void> }): Promise<number>;
  /** The instance that polled the bot last (the elected poller), or the first instance before any poll. */
  poller(): string;
  isRunning(name: string): boolean;
  /** Each bot message (edits merged) with when the watcher first saw it. */
  seen(): readonly SeenMessage[];
  /** When the watcher first saw a bot message with exactly this text (ms since the epoch), or undefined. */
  seenAt(text: string): number | undefined;
  close(): Promise<void>;
};

/** How the cluster is set up. */
export type ClusterUnderChaosOptions = {
  readonly instances: number;
  readonly yaml: (workFolder: string) => string;
  readonly allowFrom: string;
  readonly approvers: string;
  /** Where config/default.yaml is; default the source tree's root. */
  readonly repositoryRoot?: string;
  /** The compiled main.js the instances run; default `dist/src/app/main.js` (the bench runs its own build's). */
  readonly mainScript?: string;
};

/** Starts the database, emulator, proxy and model; instances start with `start(name)`. */
export async function createClusterUnderChaos(options: ClusterUnderChaosOptions): Promise<ClusterUnderChaos> {
  const root = options.repositoryRoot ?? repositoryRoot;
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
        repositoryRoot: root,
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
          GATEWAY_PORT: String(await findFreePort()),
        },
      }),
    );
  }

  // The emulator keeps no times: a watcher notes when each message (and each edit) first appears.
  const seen = new Map<string, SeenMessage>();
  const firstSeenByText = new Map<string, number>();
  const watcher = setInterval(() => {
    for (const message of emulator.botMessages(chaosToken)) {
      const key = `${message.chatId}:${message.messageId}:${message.text}`;
      if (seen.has(key)) continue;
      const seenAt = Date.now();
      seen.set(key, { ...message, seenAt });
      if (!firstSeenByText.has(message.text)) firstSeenByText.set(message.text, seenAt);
    }
  }, 50);

  const world: ClusterUnderChaos = {
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
      const agent = await startAgentProcess({ repositoryRoot: root, script: options.mainScript, environment, configFile, readyTimeoutMs: 60_000 });
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
    async killAndRestart(name, restart) {
      await world.kill(name);
      const killedAt = Date.now();
      await restart.whileDead?.();
      await new Promise((resolve) => setTimeout(resolve, restart.deadForMs));
      await world.start(name);
      return killedAt;
    },
    poller: () => proxy.polls.at(-1)?.instance ?? names[0] ?? '',
    isRunning: (name) => running.has(name),
    seen: () => [...seen.values()],
    seenAt: (text) => firstSeenByText.get(text),
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
  return world;
}
