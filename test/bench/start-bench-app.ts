import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelPort } from '../../src/model/model-port.js';
import { type App, createApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logging/create-logger.js';
import type { ToolDefinition } from '../../src/registry/define-tool.js';
import { repositoryRoot } from './bench-paths.js';

/** A started in-process app over a temporary data folder. */
export type BenchApp = {
  readonly app: App;
  readonly dataDir: string;
  /** Stops the app and removes its data folder. */
  stop(): Promise<void>;
};

/**
 * Boots the real composition root in `server` mode with no chat channel on (no token, WeChat off,
 * the HTTP gateway on a random port), a SQLite store in a temporary folder, silent logs, the given model, and `yaml`
 * as a config overlay when given.
 */
export async function startBenchApp(options: { readonly model: ModelPort; readonly extraTools?: readonly ToolDefinition[]; readonly yaml?: string }): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'echo-bench-'));
  // Settings beyond the defaults (memory on) go in an overlay file, as an operator would write them.
  const configFile = options.yaml === undefined ? undefined : join(dataDir, 'bench.yaml');
  if (configFile !== undefined) writeFileSync(configFile, options.yaml ?? '');
  const loaded = loadConfig({
    ...(configFile === undefined ? {} : { configFile }),
    channels: await channelSectionsOfThisTree(),
    root: repositoryRoot,
    // The gateway's port: GATEWAY_PORT now, WEBHOOK_PORT in trees from before the gateway was core (--against).
    environment: { ECHO_DATA_DIR: dataDir, ECHO_LOG_LEVEL: 'silent', OPENAI_API_KEY: 'bench-key', GATEWAY_PORT: '0', WEBHOOK_PORT: '0', WECHAT_ENABLED: 'false' },
  });
  if (!loaded.ok) throw new Error(`bench config invalid: ${loaded.errors.join('; ')}`);
  await applyProcessSettingsOfThisTree(loaded.config);
  const logger = await createLogger({ level: loaded.config.log.level, pretty: false });
  const created = await createApp({ config: loaded.config, logger, mode: 'server', model: options.model, extraTools: options.extraTools });
  if (!created.ok) throw new Error(`bench app did not start: ${created.error}`);
  await created.app.start();
  return {
    app: created.app,
    dataDir,
    async stop() {
      await created.app.stop(10_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The channels' config sections, where the tree under measurement has them (`--against` compiles this harness over an
 * older tree's src/, whose config schema still holds every channel itself and whose loader takes no sections).
 */
async function channelSectionsOfThisTree(): Promise<Parameters<typeof loadConfig>[0]['channels']> {
  try {
    const builtin = await import('../../src/app/builtin-channels.js');
    return builtin.channelConfigSections();
  } catch {
    return [];
  }
}

/**
 * What the tree's `start` does to the process before it builds the app (`runtime.heapGrowthPercent`), where the tree
 * has it: the in-process figures then are those of the process a user runs. Trees from before it have no such step.
 */
async function applyProcessSettingsOfThisTree(config: Record<string, unknown>): Promise<void> {
  let applyHeapGrowth: ((percent: number) => void) | undefined;
  try {
    ({ applyHeapGrowth } = await import('../../src/app/apply-heap-growth.js'));
  } catch {
    return;
  }
  const runtime = config.runtime as { readonly heapGrowthPercent?: unknown } | undefined;
  if (typeof runtime?.heapGrowthPercent === 'number') applyHeapGrowth(runtime.heapGrowthPercent);
}
