import { userInfo } from 'node:os';
import { join } from 'node:path';
import { createParkedResumptions } from '../approvals/parked-resumptions.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import { collectSecrets } from '../config/collect-secrets.js';
import { loadConfig } from '../config/load-config.js';
import type { InboundEvent } from '../events/inbound-event.js';
import { createTurnParking } from '../journal/create-turn-parking.js';
import { createDeliveredReplies } from '../journal/delivered-replies.js';
import { createInboundJournal, type JournalEntry } from '../journal/inbound-journal.js';
import { createParkedTurns, type ParkedTurn } from '../journal/parked-turns.js';
import { createAuditLog } from '../registry/audit-log.js';
import { createStore } from '../store/create-store.js';
import type { ParsedArguments } from '../app/parse-arguments.js';

import { channelConfigSections } from '../app/builtin-channels.js';

type Output = { readonly write: (text: string) => void };

const usageLine = 'Usage: npm run parked [-- list | show <id> | retry <id> | drop <id>]\n';

/** One line per parked turn: id, when, where, starts, what. Pure. */
export function formatParkedList(turns: readonly ParkedTurn[]): string {
  if (turns.length === 0) return 'No turns are parked.\n';
  const lines = turns.map((turn) => `${turn.id}  ${turn.parkedAt}  ${turn.event.channel}:${turn.event.chatId}  ${turn.event.type}  ${turn.attempts} start(s)  ${summaryOf(turn.event)}`);
  return `${turns.length} parked turn(s):\n${lines.join('\n')}\n`;
}

function summaryOf(event: InboundEvent): string {
  if (event.type === 'message-received') return JSON.stringify(event.text.slice(0, 60)) + (event.media.length > 0 ? ` +${event.media.length} file(s)` : '');
  if (event.type === 'schedule-fired') return `job ${event.jobId}`;
  if (event.type === 'hook-received') return `hook ${event.hookName} delivery ${event.deliveryId}`;
  if (event.type === 'action-clicked') return `${event.action} ${event.actionId}`;
  if (event.type === 'sub-task-started') return `sub-task ${event.subTaskId}`;
  return `resumption ${event.suspensionId}`;
}

/**
 * `npm run parked`: turns set aside after repeated interruptions, from the store. `show <id>` prints one as JSON;
 * `retry <id>` puts it back (a message in the journal, a resumption with its approval) with its start count reset (a running agent runs it on its next sweep,
 * within 15 s, or at its next start); `drop <id>` forgets it. Retries and drops are audited. Needs no model key.
 */
export async function runParked(parsed: ParsedArguments, output: Output = process.stdout, errors: Output = process.stderr): Promise<number> {
  const loaded = loadConfig({ configFile: parsed.configFile, channels: channelConfigSections() });
  if (!loaded.ok) {
    errors.write(`The configuration is not valid:\n${loaded.errors.map((line) => `  - ${line}`).join('\n')}\n`);
    return 2;
  }
  const { config } = loaded;
  const [action = 'list', id] = parsed.words;
  if (!['list', 'show', 'retry', 'drop'].includes(action) || (action !== 'list' && id === undefined)) {
    errors.write(usageLine);
    return 2;
  }
  const store = await createStore({ url: config.storage.url, dataDir: config.storage.dataDir });
  const audit = createAuditLog({ directory: join(config.storage.dataDir, 'audit'), secrets: collectSecrets(config, channelConfigSections()) });
  try {
    const parking = createTurnParking({
      parked: createParkedTurns(store.namespace<ParkedTurn>('parked-turns')),
      journal: createInboundJournal(store.namespace<JournalEntry>('inbound-journal')),
      delivered: createDeliveredReplies(store.namespace<number>('delivered-replies'), config.storage.dedupeHours * 60 * 60_000),
      resumptions: createParkedResumptions({ approvals: store.namespace<PendingApproval>('approvals'), suspensions: store.namespace<SuspendedTurn>('suspended-turns') }),
      audit: (entry) => audit.record(entry),
    });
    const by = `operator:${operatorName()}`;
    const key = id ?? '';
    switch (action) {
      case 'show': {
        const turn = await parking.get(key);
        if (!turn) return notFound(errors, key);
        output.write(`${JSON.stringify(turn, null, 2)}\n`);
        return 0;
      }
      case 'retry':
        if (!(await parking.retry(key, by))) return notFound(errors, key);
        output.write(`Parked turn ${key} is queued again with its start count reset: a running agent runs it within one sweep (15 s), a stopped one at its next start.\n`);
        return 0;
      case 'drop':
        if (!(await parking.drop(key, by))) return notFound(errors, key);
        output.write(`Parked turn ${key} was dropped.\n`);
        return 0;
      default:
        output.write(formatParkedList(await parking.list()));
        return 0;
    }
  } finally {
    await audit.flush();
    await store.close();
  }
}

function notFound(errors: Output, id: string): number {
  errors.write(`There is no parked turn ${id} (npm run parked lists them).\n`);
  return 1;
}

function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
