import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { channelConfigSections } from '../../src/app/builtin-channels.js';
import { type App, createApp } from '../../src/app/create-app.js';
import { collectSecrets } from '../../src/config/collect-secrets.js';
import type { Config } from '../../src/config/config-schema.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger, type Logger } from '../../src/logging/create-logger.js';
import type { ToolDefinition } from '../../src/registry/define-tool.js';
import type { EventHandled } from '../../src/telemetry/telemetry.js';
import type { ContractAppSetup } from './channel-harness.js';

/** The model's key every contract app is given: a secret of its own, checked on every channel. */
export const contractModelKey = 'sk-contract-model-key-0f3a9c';

/** An app started for the contract, with its logger's lines and its terminal streams. */
export type ContractApp = {
  readonly app: App;
  readonly config: Config;
  readonly logger: Logger;
  /** Every line the app's logger wrote (JSON text), at debug level. */
  readonly logLines: readonly string[];
  /** Every event the runtime handled, from the start on: its type and the channel on its envelope. */
  readonly handledEvents: readonly EventHandled[];
  readonly terminalInput: PassThrough;
  readonly terminalOutput: PassThrough;
  stop(): Promise<void>;
};

const repositoryRoot = resolve(import.meta.dirname, '..', '..');

/**
 * Boots the real composition root as `npm start` (or `npm run chat`) does, over `dataDir`: the config from
 * default.yaml, the variables and the YAML given, and a logger built like the real one (secrets from the config),
 * writing into memory at debug level so the contract can read every line.
 */
export async function startContractApp(options: {
  readonly setup: ContractAppSetup;
  readonly dataDir: string;
  readonly modelUrl: string;
  readonly yaml: string;
  readonly extraTools: readonly ToolDefinition[];
}): Promise<ContractApp> {
  const configFolder = join(options.dataDir, '..', 'contract-config');
  mkdirSync(configFolder, { recursive: true });
  const configFile = join(configFolder, 'contract.yaml');
  writeFileSync(configFile, options.yaml);
  const sections = channelConfigSections(options.setup.channels);
  const loaded = loadConfig({
    channels: sections,
    root: repositoryRoot,
    configFile,
    environment: { ECHO_DATA_DIR: options.dataDir, ECHO_LOG_LEVEL: 'debug', OPENAI_API_KEY: contractModelKey, OPENAI_BASE_URL: options.modelUrl, GATEWAY_PORT: '0', ...options.setup.environment },
  });
  if (!loaded.ok) throw new Error(`contract config invalid: ${loaded.errors.join('; ')}`);
  const logLines: string[] = [];
  const logger = await createLogger({ level: 'debug', pretty: false, secrets: collectSecrets(loaded.config, sections), destination: { write: (line: string) => void logLines.push(line) } });
  const terminalInput = new PassThrough();
  const terminalOutput = new PassThrough();
  const created = await createApp({
    config: loaded.config,
    logger,
    mode: options.setup.mode,
    terminal: { input: terminalInput, output: terminalOutput },
    extraTools: options.extraTools,
    channels: options.setup.channels,
    sandboxSources: { root: loaded.root, loadedFiles: loaded.loadedFiles },
  });
  if (!created.ok) throw new Error(`contract app did not start: ${created.error}`);
  const handledEvents: EventHandled[] = [];
  created.app.telemetry.onEventHandled((event) => void handledEvents.push(event));
  await created.app.start();
  return {
    app: created.app,
    config: loaded.config,
    logger,
    logLines,
    handledEvents,
    terminalInput,
    terminalOutput,
    async stop() {
      terminalInput.end();
      await created.app.stop(2000);
    },
  };
}
