import { applyHeapGrowth } from '../app/apply-heap-growth.js';
import { createApp } from '../app/create-app.js';
import type { ParsedArguments } from '../app/parse-arguments.js';
import { loadRuntimeConfig } from './load-runtime-config.js';
import { startUpFailure } from './start-up-failure.js';

/** `npm run chat`: the terminal channel through the same bus and loop; exits 0 at the end of input. */
export async function runChat(argumentsParsed: ParsedArguments): Promise<number> {
  const loaded = await loadRuntimeConfig({ configFile: argumentsParsed.configFile, quiet: true });
  if (!loaded.ok) return 2;
  applyHeapGrowth(loaded.config.runtime.heapGrowthPercent);
  const created = await createApp({ config: loaded.config, logger: loaded.logger, mode: 'chat', sandboxSources: { root: loaded.root, loadedFiles: loaded.loadedFiles } }).catch(startUpFailure);
  if (!created.ok) {
    process.stderr.write(`echo-agent cannot start: ${created.error}\n`);
    return 1;
  }
  const { app } = created;
  if (process.stdin.isTTY) process.stderr.write(`echo-agent chat (${app.startupLines[0]}). Type a message, /help for commands, Ctrl+D to quit.\n`);
  await app.start();
  await app.terminalEnded;
  // Answers to the last lines may still be running: wait for the bus to go quiet, then stop.
  await app.bus.idle();
  await app.stop(10_000);
  return 0;
}
