import { type ClusterUnderChaos, createClusterUnderChaos } from '../chaos/cluster-under-chaos.js';
import { type BenchTree, thisTree } from './bench-tree.js';
import { liftedTelegramLimitsYaml } from './lifted-telegram-limits.js';

/** What `startBenchCluster` starts. */
export type BenchClusterOptions = {
  readonly instances: number;
  /** Everyone who may write to the bot. */
  readonly userIds: readonly number[];
  /** How long the scripted model takes per answer. */
  readonly modelDelayMs: number;
  /** Whose `main.js` the instances run; this tree's by default. */
  readonly tree?: BenchTree;
  /** `postgres` (cluster mode, the default) or `sqlite`: the same processes with `storage.url` emptied, each on its own SQLite file. */
  readonly storage?: 'postgres' | 'sqlite';
};

/** Config that turns cluster mode off again: the --config file overrides `url: ${ECHO_STORAGE_URL}` of default.yaml. */
const sqliteYaml = 'storage:\n  url: ""\n';

/**
 * The chaos cluster (a fresh scratch PostgreSQL database, the Telegram emulator behind the recording
 * proxy, the scripted model) with every instance running the bench's own build of `main.js start`,
 * Telegram's send limits lifted, and the model answering `answer: <the message>` after `modelDelayMs`.
 * With `storage: 'sqlite'` the same set-up without cluster mode: the standalone process to compare one instance with.
 */
export async function startBenchCluster(options: BenchClusterOptions): Promise<ClusterUnderChaos> {
  const tree = options.tree ?? thisTree;
  const cluster = await createClusterUnderChaos({
    instances: options.instances,
    allowFrom: options.userIds.join(','),
    approvers: '',
    yaml: () => liftedTelegramLimitsYaml + (options.storage === 'sqlite' ? sqliteYaml : ''),
    repositoryRoot: tree.repositoryRoot,
    mainScript: tree.mainScript,
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
