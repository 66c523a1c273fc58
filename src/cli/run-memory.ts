import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { collectSecrets } from '../config/collect-secrets.js';
import { loadConfig } from '../config/load-config.js';
import { createFactStore, type FactList } from '../memory/create-fact-store.js';
import { createIdentityLinks, type IdentityLink, type PersonIdentity } from '../memory/create-identity-links.js';
import { createExchangeArchive, type ExchangeList } from '../memory/create-exchange-archive.js';
import { exchangeVectorKey, pruneFactVectors, type ScopeVectors } from '../memory/create-fact-vectors.js';
import type { MemoryFact } from '../memory/memory-fact.js';
import { collectPersonMemory, deletePersonMemory, type StoredSession } from '../memory/person-memory.js';
import { createAuditLog } from '../registry/audit-log.js';
import { createStore } from '../store/create-store.js';
import type { ParsedArguments } from '../app/parse-arguments.js';
import { channelConfigSections } from '../app/builtin-channels.js';

type Output = { readonly write: (text: string) => void };

const usageLine = 'Usage: npm run memory -- --export <channel>:<userId> [--out FILE] | --delete <channel>:<userId>\n';

/** `<channel>:<userId>` as an identity; the user id may itself hold colons. Pure. */
export function parsePersonArgument(text: string | undefined): PersonIdentity | undefined {
  const match = /^([a-z][a-z0-9-]*):(.+)$/.exec(text ?? '');
  return match === null ? undefined : { channel: match[1] ?? '', userId: match[2] ?? '' };
}

/**
 * `npm run memory -- --export <channel>:<userId>` prints (or writes to `--out FILE`) every fact, archived exchange and compaction summary
 * memory holds about that person as JSON; `--delete <channel>:<userId>` removes them. Both are audited
 * (`memory-exported`, `memory-deleted`, by `operator:<login>`). Works on the store of the configuration; needs no model key.
 */
export async function runMemory(parsed: ParsedArguments, output: Output = process.stdout, errors: Output = process.stderr): Promise<number> {
  const loaded = loadConfig({ configFile: parsed.configFile, channels: channelConfigSections() });
  if (!loaded.ok) {
    errors.write(`The configuration is not valid:\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return 2;
  }
  const { config } = loaded;
  const exporting = parsePersonArgument(parsed.values.get('export'));
  const deleting = parsePersonArgument(parsed.values.get('delete'));
  const person = exporting ?? deleting;
  if (person === undefined || (exporting !== undefined && deleting !== undefined)) {
    errors.write(usageLine);
    return 2;
  }
  const store = await createStore({ url: config.storage.url, dataDir: config.storage.dataDir });
  const audit = createAuditLog({ directory: join(config.storage.dataDir, 'audit'), secrets: collectSecrets(config, channelConfigSections()) });
  const now = () => new Date();
  try {
    const identities = createIdentityLinks(store.namespace<IdentityLink>('memory-identities'), { now });
    const vectors = store.namespace<ScopeVectors>('memory-vectors');
    // A deleted fact's vector goes with it, as when a person forgets it in chat.
    const onChange = (scopeKey: string, kept: readonly MemoryFact[]) => pruneFactVectors(vectors, scopeKey, new Set(kept.map((fact) => fact.id)));
    const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now, resolveScope: (scope) => identities.resolve(scope), onChange });
    const exchanges = createExchangeArchive(store.namespace<ExchangeList>('memory-exchanges'), {
      keepPerScope: config.memory.exchanges.keepPerScope,
      maxChars: config.memory.exchanges.maxChars,
      resolveScope: (scope) => identities.resolve(scope),
      onChange: (scopeKey, kept) => pruneFactVectors(vectors, exchangeVectorKey(scopeKey), new Set(kept.map((exchange) => exchange.id))),
    });
    const sources = { facts, identities, exchanges, sessions: store.namespace<StoredSession>('sessions'), listings: store.namespace<unknown>('memory-listings') };
    const by = `operator:${operatorName()}`;
    const user = `${person.channel}:${person.userId}`;
    if (exporting !== undefined) {
      const memory = await collectPersonMemory(sources, person);
      const text = `${JSON.stringify({ person: user, exportedAt: now().toISOString(), ...memory }, null, 2)}\n`;
      const file = parsed.values.get('out');
      if (file === undefined) output.write(text);
      else {
        await writeFile(file, text, { mode: 0o600 });
        output.write(`Wrote ${memory.personFacts.length + memory.statedElsewhere.length} fact(s), ${memory.exchanges.length} exchange(s) and ${memory.summaries.length} summary(ies) about ${user} to ${file}.\n`);
      }
      audit.record({ kind: 'memory-exported', userId: user, arguments: { identities: memory.identities, facts: memory.personFacts.length + memory.statedElsewhere.length, exchanges: memory.exchanges.length, summaries: memory.summaries.length, ...(file === undefined ? {} : { file }) }, outcome: 'exported', decidedBy: by });
      return 0;
    }
    const deleted = await deletePersonMemory(sources, person);
    audit.record({ kind: 'memory-deleted', userId: user, arguments: deleted, outcome: `deleted:${deleted.factIds.length}`, decidedBy: by });
    output.write(`Deleted ${deleted.factIds.length} fact(s), ${deleted.exchangeIds.length} exchange(s) and ${deleted.summaries.length} summary(ies) about ${user}${deleted.identities.length > 1 ? ` and its ${deleted.identities.length - 1} linked identity(ies)` : ''}.\n`);
    return 0;
  } finally {
    await audit.flush();
    await store.close();
  }
}

function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
