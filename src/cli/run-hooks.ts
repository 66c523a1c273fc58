import type { ParsedArguments } from '../app/parse-arguments.js';
import { channelConfigSections } from '../app/builtin-channels.js';
import type { Config } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';
import { createHookDeliveries, type DeliverySummary } from '../hooks/hook-deliveries.js';
import { createStore } from '../store/create-store.js';

type Output = { readonly write: (text: string) => void };

const shownPerHook = 10;

/** One delivery in a line: when, status, delivery id, then received → verified → matched → run → delivered. Pure. */
export function formatDelivery(summary: DeliverySummary): string {
  const steps = [
    'received',
    summary.verified ? 'verified' : 'not verified',
    ...(summary.matched === undefined ? [] : [summary.matched ? 'matched' : 'not matched']),
    ...(summary.duplicate ? ['duplicate, not run'] : []),
    ...(summary.run === undefined ? (summary.matched && !summary.duplicate ? ['queued'] : []) : [`run ${summary.run}`]),
    ...(summary.delivered === undefined ? [] : [summary.delivered ? 'delivered' : 'not delivered']),
  ];
  return `  ${summary.at}  ${summary.status}  ${summary.deliveryId ?? '-'}  ${steps.join(' → ')}${summary.note ? `  (${summary.note})` : ''}`;
}

/** Each configured hook with its route, preset, target and last deliveries. Pure. */
export function formatHooks(config: Pick<Config, 'hooks'>, recent: ReadonlyMap<string, readonly DeliverySummary[]>): string {
  const hooks = Object.entries(config.hooks);
  if (hooks.length === 0) return 'No hooks are configured (hooks: in the config; see README, "Let GitHub (or Stripe, or anything) talk to your agent").\n';
  const blocks = hooks.map(([name, hook]) => {
    const deliveries = recent.get(name) ?? [];
    const head = `${name}  POST /hooks/${name}  verify ${hook.verify}  → ${hook.deliverTo.channel}:${hook.deliverTo.chatId}${hook.deliverTo.threadId ? `#${hook.deliverTo.threadId}` : ''}`;
    return [head, ...(deliveries.length === 0 ? ['  (no deliveries yet)'] : deliveries.slice(0, shownPerHook).map(formatDelivery))].join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

/**
 * `npm run hooks`: each configured hook and its last deliveries from the store (received, verified, matched, run,
 * delivered). Requests refused before verification are counted in /metrics, not stored. Needs no model key.
 */
export async function runHooks(parsed: ParsedArguments, output: Output = process.stdout, errors: Output = process.stderr): Promise<number> {
  const loaded = loadConfig({ configFile: parsed.configFile, channels: channelConfigSections() });
  if (!loaded.ok) {
    errors.write(`The configuration is not valid:\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return 2;
  }
  const { config } = loaded;
  const store = await createStore({ url: config.storage.url, dataDir: config.storage.dataDir });
  try {
    const deliveries = createHookDeliveries(store);
    const recent = new Map<string, readonly DeliverySummary[]>();
    for (const name of Object.keys(config.hooks)) recent.set(name, await deliveries.recent(name));
    output.write(formatHooks(config, recent));
    return 0;
  } finally {
    await store.close();
  }
}
