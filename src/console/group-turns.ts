import type { AuditEntry } from '../registry/audit-log.js';

/** An audit entry as read back, with its time. */
export type RecordedEntry = AuditEntry & { readonly at: string };

/** What the activity view shows as one turn: the audit entries of one trace (or of one approval without a trace). */
export type RecordedTurn = {
  readonly id: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly channel?: string;
  readonly userId?: string;
  readonly sessionKey?: string;
  readonly entries: readonly RecordedEntry[];
  /** `failed` when a step failed, `waiting` while an approval is open, `denied` when one was refused, else `ok`. */
  readonly outcome: 'ok' | 'failed' | 'denied' | 'waiting';
  /** What started it, as far as the audit log tells: a schedule or a hook (their turns' user ids), else a message. */
  readonly origin: TurnOrigin;
};

/** What started a turn, as the activity view tells it apart. */
export type TurnOrigin = 'message' | 'schedule' | 'hook';

/** The origins the activity filter offers. */
export const turnOrigins: readonly TurnOrigin[] = ['message', 'schedule', 'hook'];

/** Filters the activity view offers; each matches exactly, empty means any. */
export type TurnFilter = { readonly channel?: string; readonly user?: string; readonly origin?: string; readonly kind?: string; readonly outcome?: string };

/** Groups audit entries into turns, newest first: by trace id, else by approval id, else alone. Pure. */
export function groupTurns(entries: readonly RecordedEntry[]): readonly RecordedTurn[] {
  const groups = new Map<string, RecordedEntry[]>();
  entries.forEach((entry, index) => {
    const key = entry.traceId ?? (entry.approvalId === undefined ? `entry-${index}` : `approval-${entry.approvalId}`);
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  });
  const turns = [...groups.entries()].map(([id, group]): RecordedTurn => {
    const first = group.find((entry) => entry.channel !== undefined) ?? group[0];
    return {
      id,
      startedAt: group[0]?.at ?? '',
      endedAt: group.at(-1)?.at ?? '',
      channel: first?.channel,
      userId: group.find((entry) => entry.userId !== undefined)?.userId,
      sessionKey: group.find((entry) => entry.sessionKey !== undefined)?.sessionKey,
      entries: group,
      outcome: outcomeOf(group),
      origin: originOf(group.find((entry) => entry.userId !== undefined)?.userId),
    };
  });
  return turns.sort((left, right) => right.endedAt.localeCompare(left.endedAt));
}

function originOf(userId: string | undefined): TurnOrigin {
  // A scheduled turn runs as `schedule:<job>`, a hook's as `hook:<name>` (src/agent/create-agent-runtime.ts, hook-subject.ts).
  if (userId?.startsWith('schedule:')) return 'schedule';
  if (userId?.startsWith('hook:')) return 'hook';
  return 'message';
}

function outcomeOf(group: readonly RecordedEntry[]): RecordedTurn['outcome'] {
  if (group.some((entry) => entry.error !== undefined || /fail|error|timeout/i.test(entry.outcome))) return 'failed';
  if (group.some((entry) => /denied|refused|blocked/i.test(entry.outcome))) return 'denied';
  const requested = group.some((entry) => entry.kind === 'approval-requested');
  const settled = group.some((entry) => entry.kind === 'approval-decided' || entry.kind === 'approval-expired' || entry.kind === 'approval-cancelled');
  return requested && !settled ? 'waiting' : 'ok';
}

/** The turns a filter keeps. Pure. */
export function filterTurns(turns: readonly RecordedTurn[], filter: TurnFilter): readonly RecordedTurn[] {
  return turns.filter(
    (turn) =>
      (!filter.channel || turn.channel === filter.channel) &&
      (!filter.user || turn.userId === filter.user) &&
      (!filter.origin || turn.origin === filter.origin) &&
      (!filter.kind || turn.entries.some((entry) => entry.kind === filter.kind)) &&
      (!filter.outcome || turn.outcome === filter.outcome),
  );
}
