import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultExecPath, type ExecSandbox, findExecutable } from '../../tools/index.js';
import type { Config } from '../config/config-schema.js';

/** The sandbox exec runs commands in: bubblewrap hiding the agent's data, home and secret files, or none when configured off. */
export function execSandboxFor(config: Config): ExecSandbox {
  if (config.tools.sandbox === 'off') return { mode: 'off' };
  const root = process.cwd();
  const secretFiles = [join(root, '.env'), join(root, 'config', 'local.yaml')].filter((file) => existsSync(file));
  return {
    mode: 'bwrap',
    bwrapPath: findExecutable('bwrap', `${config.tools.execPath}:${defaultExecPath}`),
    network: config.tools.sandboxNetwork,
    hiddenPaths: [resolve(config.storage.dataDir), homedir()],
    hiddenFiles: secretFiles,
  };
}
