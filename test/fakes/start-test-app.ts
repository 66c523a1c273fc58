import { channelConfigSections } from '../../src/app/builtin-channels.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { type App, type AppMode, createApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { ToolDefinition } from '../../src/registry/define-tool.js';

/** Options for an app under test: environment variables as `npm start` reads them, plus extras. */
export type TestAppOptions = {
  /** Variables config/default.yaml reads (OPENAI_BASE_URL, TELEGRAM_BOT_TOKEN, ...). */
  readonly environment?: Readonly<Record<string, string>>;
  /** A YAML file merged over default.yaml, as `--config FILE`. */
  readonly configFile?: string;
  readonly mode?: AppMode;
  /** Reuse a data folder (to restart over the same SQLite file). */
  readonly dataDir?: string;
  readonly extraTools?: readonly ToolDefinition[];
  readonly now?: () => Date;
  readonly sweepEveryMs?: number;
  /** The channels to offer (default the built-in ones), e.g. WeChat over a mock puppet. */
  readonly channels?: readonly ChannelAdapter[];
};

/** A started app with its data folder, terminal streams (chat mode) and a cleanup. */
export type TestApp = {
  readonly app: App;
  readonly dataDir: string;
  readonly terminalInput: PassThrough;
  readonly terminalOutput: PassThrough;
  /** Everything written to the terminal so far. */
  terminalText(): string;
  /** Stops the app (keeps the data folder when `keepData`). */
  stop(options?: { readonly keepData?: boolean }): Promise<void>;
};

const repositoryRoot = resolve(import.meta.dirname, '..', '..');

/** Boots the real composition root the way `npm start` does, over a temporary data folder. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'echo-test-'));
  const loaded = loadConfig({ channels: channelConfigSections(options.channels),
    root: repositoryRoot,
    configFile: options.configFile,
    // Port 0: parallel test apps never fight over the gateway's default port.
    environment: { ECHO_DATA_DIR: dataDir, ECHO_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', OPENAI_API_KEY: 'test-key', GATEWAY_PORT: '0', ...options.environment },
  });
  if (!loaded.ok) throw new Error(`test config invalid: ${loaded.errors.join('; ')}`);
  const logger = await createLogger({ level: loaded.config.log.level, pretty: false });
  const terminalInput = new PassThrough();
  const terminalOutput = new PassThrough();
  let text = '';
  terminalOutput.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const created = await createApp({
    config: loaded.config,
    logger,
    mode: options.mode ?? 'server',
    terminal: { input: terminalInput, output: terminalOutput },
    extraTools: options.extraTools,
    now: options.now,
    sweepEveryMs: options.sweepEveryMs,
    channels: options.channels,
    sandboxSources: { root: loaded.root, loadedFiles: loaded.loadedFiles },
  });
  if (!created.ok) throw new Error(`test app did not start: ${created.error}`);
  await created.app.start();
  return {
    app: created.app,
    dataDir,
    terminalInput,
    terminalOutput,
    terminalText: () => text,
    async stop(stopOptions = {}) {
      await created.app.stop(2000);
      if (!stopOptions.keepData && options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` returns a value (polling), or fails with what it was waiting for. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolveSleep) => setTimeout(resolveSleep, 20));
  }
}
