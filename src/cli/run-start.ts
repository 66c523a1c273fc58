import { applyHeapGrowth } from '../app/apply-heap-growth.js';
import { builtinChannels } from '../app/builtin-channels.js';
import { createApp } from '../app/create-app.js';
import { loadRuntimeConfig } from './load-runtime-config.js';
import { noChatChannelHint } from '../app/no-chat-channel-hint.js';
import { startUpFailure } from './start-up-failure.js';
import type { ParsedArguments } from '../app/parse-arguments.js';

/** `npm start`: every configured channel, until SIGINT or SIGTERM. Resolves to the exit code. */
export async function runStart(argumentsParsed: ParsedArguments): Promise<number> {
  const loaded = await loadRuntimeConfig({ configFile: argumentsParsed.configFile });
  if (!loaded.ok) return 2;
  applyHeapGrowth(loaded.config.runtime.heapGrowthPercent);
  const created = await createApp({ config: loaded.config, logger: loaded.logger, mode: 'server', sandboxSources: { root: loaded.root, loadedFiles: loaded.loadedFiles } }).catch(startUpFailure);
  if (!created.ok) {
    process.stderr.write(`echo-agent cannot start: ${created.error}\n`);
    return 1;
  }
  const { app } = created;

  // Signal handlers go in before anything starts, so a signal during start-up still stops cleanly.
  let signalled: (signal: string) => void = () => undefined;
  const stopRequested = new Promise<string>((resolve) => {
    signalled = resolve;
  });
  // `on`, not `once`: a library's signal-exit handler re-raises the signal when it sees no other listener left.
  process.on('SIGINT', () => signalled('SIGINT'));
  process.on('SIGTERM', () => signalled('SIGTERM'));

  for (const line of app.startupLines) process.stdout.write(`${line}\n`);
  if (app.chatChannels.length === 0) {
    process.stdout.write(`${noChatChannelHint(builtinChannels)}\n`);
  }
  await app.start();
  process.stdout.write('echo-agent is running. Press Ctrl+C to stop.\n');

  // Channels may all be off (no token yet): the process still runs until it is told to stop.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const signal = await stopRequested;
  clearInterval(keepAlive);
  loaded.logger.info({ signal }, 'stopping: no new messages; finishing turns in flight (up to 10 s)');
  const result = await app.stop(10_000);
  if (!result.drained) loaded.logger.warn('some turns did not finish in time; suspended ones resume after the next start');
  return 0;
}
