import { listJobRows } from '../scheduler/index.js';
import { loadConfig } from '../config/load-config.js';
import { createStore } from '../store/create-store.js';
import type { ParsedArguments } from '../app/parse-arguments.js';

import { channelConfigSections } from '../app/builtin-channels.js';

const usage = 'Usage: npm run cron -- list [--config FILE]';

/** `npm run cron -- list`: every job with its schedule, time zone, target, next run and last status. Needs no model key. */
export async function runCron(parsed: ParsedArguments, output: { readonly write: (text: string) => void } = process.stdout, errors: { readonly write: (text: string) => void } = process.stderr): Promise<number> {
  const [subcommand = 'list'] = parsed.words;
  if (subcommand !== 'list') {
    errors.write(`Unknown cron command "${subcommand}".\n${usage}\n`);
    return 2;
  }
  const loaded = loadConfig({ configFile: parsed.configFile, channels: channelConfigSections() });
  if (!loaded.ok) {
    errors.write(`The configuration is not valid:\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return 2;
  }
  const store = await createStore({ url: loaded.config.storage.url, dataDir: loaded.config.storage.dataDir });
  try {
    const rows = await listJobRows({ config: loaded.config, store, now: new Date() });
    if (rows.length === 0) {
      output.write(`No scheduled jobs (config cron.jobs is empty and no task was scheduled; store: ${store.description}).\n`);
      return 0;
    }
    for (const row of rows) {
      output.write(`${row.id}  ${row.schedule}  (${row.timezone})  → ${row.target}  [${row.source}]\n    next: ${row.nextRun}\n    last: ${row.lastStatus}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
