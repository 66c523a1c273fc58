import type { Config } from '../config/config-schema.js';
import { collectSecrets } from '../config/collect-secrets.js';
import { loadConfig } from '../config/load-config.js';
import { createLogger, type Logger } from '../logging/create-logger.js';
import { channelConfigSections } from '../app/builtin-channels.js';

/** Loads the config and a logger, or prints every problem in plain lines and says so. */
export async function loadRuntimeConfig(options: { readonly configFile?: string; readonly quiet?: boolean; readonly root?: string }): Promise<{ ok: true; config: Config; logger: Logger; loadedFiles: readonly string[]; root: string } | { ok: false }> {
  const loaded = loadConfig({ configFile: options.configFile, root: options.root, channels: channelConfigSections() });
  if (!loaded.ok) {
    process.stderr.write(`echo-agent: the configuration is not valid (${loaded.files.join(' + ')}):\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return { ok: false };
  }
  const configured = loaded.config.log.level;
  // The terminal channel prints answers on stdout; info logs on the same screen would bury them.
  const level = options.quiet && ['info', 'debug', 'trace'].includes(configured) && configured === 'info' ? 'warn' : configured;
  const logger = await createLogger({ level, pretty: process.stderr.isTTY === true, secrets: collectSecrets(loaded.config, channelConfigSections()) });
  return { ok: true, config: loaded.config, logger, loadedFiles: loaded.loadedFiles, root: loaded.root };
}
