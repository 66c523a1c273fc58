import { type ClusterUnderChaos, createClusterUnderChaos } from '../chaos/cluster-under-chaos.js';
import { compiledScript, repositoryRoot } from './bench-paths.js';
import { liftedTelegramLimitsYaml } from './lifted-telegram-limits.js';

/** What `startBenchCluster` starts. */
export type BenchClusterOptions = {
  readonly instances: number;
  /** Everyone who may write to the bot. */
  readonly userIds: readonly number[];
  /** How long the scripted model takes per answer. */
  readonly modelDelayMs: number;
};

/**
 * The chaos cluster (a fresh scratch PostgreSQL database, the Telegram emulator behind the recording
 * proxy, the scripted model) with every instance running the bench's own build of `main.js start`,
 * Telegram's send limits lifted, and the model answering `answer: <the message>` after `modelDelayMs`.
 */
export async function startBenchCluster(options: BenchClusterOptions): Promise<ClusterUnderChaos> {
  const cluster = await createClusterUnderChaos({
    instances: options.instances,
    allowFrom: options.userIds.join(','),
    approvers: '',
    yaml: () => liftedTelegramLimitsYaml,
    repositoryRoot,
    mainScript: compiledScript('src/app/main.js'),
  });
  cluster.model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText}`, delayMs: options.modelDelayMs }));
  try {
    // The first instance installs the queue's schema; the others then start side by side.
    const [first, ...others] = cluster.names;
    if (first !== undefined) await cluster.start(first);
    await Promise.all(others.map((name) => cluster.start(name)));
    return cluster;
  } catch (error) {
    await cluster.close();
    throw error;
  }
}
