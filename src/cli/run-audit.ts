import { join } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { createAuditLog } from '../registry/audit-log.js';
import type { ParsedArguments } from '../app/parse-arguments.js';

import { channelConfigSections } from '../app/builtin-channels.js';

/** `npm run audit [-- --limit N]`: the most recent audit entries, one line each. */
export async function runAudit(parsed: ParsedArguments): Promise<number> {
  const loaded = loadConfig({ configFile: parsed.configFile, channels: channelConfigSections() });
  if (!loaded.ok) {
    process.stderr.write(`The configuration is not valid:\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return 2;
  }
  const limit = Number(parsed.values.get('limit') ?? 30);
  const directory = join(loaded.config.storage.dataDir, 'audit');
  const entries = await createAuditLog({ directory }).recent(Number.isFinite(limit) && limit > 0 ? limit : 30);
  if (entries.length === 0) {
    process.stdout.write(`No audit entries yet (${join(directory, 'audit.jsonl')}).\n`);
    return 0;
  }
  for (const entry of entries) {
    const who = entry.decidedBy ?? entry.userId ?? '-';
    const extra = [entry.approvalSource && `via ${entry.approvalSource}`, entry.durationMs !== undefined && `${entry.durationMs} ms`, entry.error].filter(Boolean).join(', ');
    const argumentsText = entry.arguments === undefined ? '' : ` ${JSON.stringify(entry.arguments).slice(0, 160)}`;
    process.stdout.write(`${entry.at} ${entry.kind} ${entry.tool ?? ''} ${entry.outcome} by ${who}${argumentsText}${extra ? ` (${extra})` : ''}\n`);
  }
  return 0;
}
