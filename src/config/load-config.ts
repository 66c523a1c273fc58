import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type ChannelConfigSection, channelEnvironmentLayer, renamedVariableErrors } from './channel-config-section.js';
import { type Config, createConfigSchema } from './config-schema.js';
import { formatConfigIssues } from './format-config-issues.js';
import { interpolateEnvironment } from './interpolate-environment.js';
import { mergeConfig } from './merge-config.js';
import { parseDotenv } from './parse-dotenv.js';
import { readConfigFile } from './read-config-file.js';

/** Where to look for configuration; all optional, defaulting to this process. */
export type LoadConfigOptions = {
  /** Project root holding `config/` and `.env`. */
  readonly root?: string;
  /** The file from `--config FILE`; takes the place of `config/local.yaml`. */
  readonly configFile?: string;
  /** Environment variables; defaults to `process.env` plus the root's `.env`. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The channels' config sections (each adapter's `configSection`): they make up `channels` and read their variables. */
  readonly channels: readonly ChannelConfigSection[];
};

/** A loaded configuration and the files it came from, or every problem found, as readable lines. */
export type LoadConfigResult =
  | {
      readonly ok: true;
      readonly config: Config;
      readonly files: readonly string[];
      /** Every file the configuration was read from: the config files and the `.env` when one was read (the sandbox hides them all). */
      readonly loadedFiles: readonly string[];
      readonly root: string;
    }
  | { readonly ok: false; readonly errors: readonly string[]; readonly files: readonly string[] };

/** Reads the channels' environment variables, then `config/default.yaml`, then `config/local.yaml` or the `--config`/`ECHO_CONFIG` file over it, interpolates `${VAR}`, validates. */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const root = resolve(options.root ?? process.cwd());
  const environment = options.environment ?? readProcessEnvironment(root);
  const dotenvPath = resolve(root, '.env');
  const dotenvFiles = options.environment === undefined && existsSync(dotenvPath) ? [dotenvPath] : [];
  const overlayName = options.configFile ?? environment.ECHO_CONFIG;
  const files = [resolve(root, 'config', 'default.yaml')];
  if (overlayName !== undefined && overlayName !== '') {
    files.push(isAbsolute(overlayName) ? overlayName : resolve(root, overlayName));
  } else if (existsSync(resolve(root, 'config', 'local.yaml'))) {
    files.push(resolve(root, 'config', 'local.yaml'));
  }

  // The channels' variables lie under every file, as `${VAR}` in config/default.yaml did: a file's own value wins.
  let merged: unknown = channelEnvironmentLayer(options.channels, environment);
  for (const file of files) {
    if (!existsSync(file)) return { ok: false, files, errors: [`The config file ${file} does not exist.`] };
    const reading = readConfigFile(file);
    if (!reading.ok) return { ok: false, files, errors: [`${file} is not valid YAML: ${reading.reason}.`] };
    merged = mergeConfig(merged, reading.value);
  }

  const renamed = renamedVariableErrors(options.channels, environment);
  if (renamed.length > 0) return { ok: false, files, errors: renamed };
  const interpolated = interpolateEnvironment(merged, environment);
  // Parsed once: zod's compiled fast path for objects (generated code per object schema) costs more to build than it saves.
  const result = createConfigSchema(options.channels).safeParse(interpolated, { jitless: true });
  if (!result.success) return { ok: false, files, errors: formatConfigIssues(result.error.issues, interpolated) };
  const config = result.data;
  const dataDir = isAbsolute(config.storage.dataDir) ? config.storage.dataDir : resolve(root, config.storage.dataDir);
  const workspaceDir = config.tools.workspaceDir ?? resolve(dataDir, 'workspace');
  return {
    ok: true,
    files,
    loadedFiles: [...files, ...dotenvFiles],
    root,
    config: {
      ...config,
      storage: { ...config.storage, dataDir },
      tools: { ...config.tools, workspaceDir: isAbsolute(workspaceDir) ? workspaceDir : resolve(root, workspaceDir) },
    },
  };
}

/** `process.env`, with the root's `.env` filling in what the environment does not set. */
export function readProcessEnvironment(root: string): Record<string, string | undefined> {
  const dotenvPath = resolve(root, '.env');
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath, 'utf8')) : {};
  return { ...fromFile, ...process.env };
}
