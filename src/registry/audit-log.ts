import { appendFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { maskSecrets, maskSecretText } from '../logging/mask-secrets.js';

/**
 * One line of the audit log: a tool execution, an approval requested, decided, expired or cancelled (its turn was), a file a person sent being
 * downloaded, a budget raised, a turn parked after repeated interruptions (and retried or dropped by an operator), or an
 * MCP caller's question, its answer and its notification (echo-agent's own MCP server), or an
 * MCP server asking the person for input (elicitation) or the model for a completion (sampling), with the answer, or
 * remembered facts a person made the agent forget (`memory-forgotten`), identities linked (`memory-linked`), or a person's
 * memory exported or deleted by an operator (`memory-exported`, `memory-deleted`).
 */
export type AuditEntry = {
  readonly kind: 'tool-call' | 'approval-requested' | 'approval-decided' | 'approval-expired' | 'approval-cancelled' | 'approval-reviewed' | 'media-downloaded' | 'budget-raised' | 'turn-parked' | 'turn-retried' | 'turn-dropped' | 'question-asked' | 'question-answered' | 'notification-sent' | 'elicitation-requested' | 'elicitation-answered' | 'sampling-requested' | 'memory-forgotten' | 'memory-linked' | 'memory-exported' | 'memory-deleted';
  readonly traceId?: string;
  readonly sessionKey?: string;
  readonly userId?: string;
  readonly channel?: string;
  readonly tool?: string;
  /** The server a tool from outside (MCP) belongs to. */
  readonly server?: string;
  readonly arguments?: unknown;
  readonly outcome: string;
  readonly durationMs?: number;
  readonly attempts?: number;
  /** How the call was cleared: policy, grant, approval (with who), auto-approve. */
  readonly approvalSource?: string;
  readonly approvalId?: string;
  readonly decidedBy?: string;
  /** Where a decision was made when not in a chat: `console` (the web console). */
  readonly via?: 'console';
  /** The approval reviewer's model and one-line reason (`approval-reviewed`). */
  readonly model?: string;
  readonly reason?: string;
  readonly error?: string;
  /** A sub-task's call: the names of the sub-tasks from the person's turn down to it. */
  readonly delegationChain?: readonly string[];
  /** A sub-task's call: the execution id of the turn that delegated it. */
  readonly parentExecutionId?: string;
};

/** Append-only JSONL audit trail. */
export interface AuditLog {
  record(entry: AuditEntry): void;
  /** Waits until every recorded entry is on disk. */
  flush(): Promise<void>;
  /** The newest entries, newest last. */
  recent(limit: number): Promise<readonly (AuditEntry & { at: string })[]>;
}

/** Where and how large the log may grow before rotation. */
export type AuditLogOptions = {
  readonly directory: string;
  readonly maxBytes?: number;
  readonly keepFiles?: number;
  readonly secrets?: readonly string[];
};

/** Creates the audit log: arguments masked, lines batched to disk, rotated by size (audit.jsonl → audit.1.jsonl ...). */
export function createAuditLog(options: AuditLogOptions): AuditLog {
  const file = join(options.directory, 'audit.jsonl');
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const keepFiles = options.keepFiles ?? 3;
  let pending: string[] = [];
  // Caught at once: a folder that cannot be created must not become an unhandled rejection (which ends the process).
  let writing: Promise<void> = mkdir(options.directory, { recursive: true }).then(
    () => undefined,
    () => undefined,
  );
  let scheduled = false;

  async function rotateIfNeeded(): Promise<void> {
    const size = await stat(file).then(
      (info) => info.size,
      () => 0,
    );
    if (size < maxBytes) return;
    for (let index = keepFiles - 1; index >= 1; index -= 1) {
      await rename(join(options.directory, `audit.${index}.jsonl`), join(options.directory, `audit.${index + 1}.jsonl`)).catch(() => undefined);
    }
    await rename(file, join(options.directory, 'audit.1.jsonl')).catch(() => undefined);
  }

  function scheduleWrite(): void {
    if (scheduled) return;
    scheduled = true;
    writing = writing.then(async () => {
      scheduled = false;
      const lines = pending;
      pending = [];
      if (lines.length === 0) return;
      await rotateIfNeeded();
      await appendFile(file, lines.join(''));
    });
    writing = writing.catch(() => undefined);
  }

  async function flush(): Promise<void> {
    scheduleWrite();
    await writing;
  }

  return {
    record(entry) {
      // Arguments are masked by key name, flag and known value; an error text can quote them too.
      const masked = {
        ...entry,
        ...(entry.arguments === undefined ? {} : { arguments: maskSecrets(entry.arguments, options.secrets) }),
        ...(entry.error === undefined ? {} : { error: maskSecretText(entry.error, options.secrets) }),
        ...(entry.reason === undefined ? {} : { reason: maskSecretText(entry.reason, options.secrets) }),
      };
      pending.push(`${JSON.stringify({ at: new Date().toISOString(), ...masked })}\n`);
      scheduleWrite();
    },
    flush,
    async recent(limit) {
      await flush();
      // Newest file first; a rotation just before the call must not hide the entries before it.
      const lines: string[] = [];
      const files = ['audit.jsonl', ...Array.from({ length: keepFiles }, (_, index) => `audit.${index + 1}.jsonl`)];
      for (const name of files) {
        if (lines.length >= limit) break;
        const text = await readFile(join(options.directory, name), 'utf8').catch(() => '');
        lines.unshift(...text.split('\n').filter((line) => line.length > 0));
      }
      return lines.slice(-limit).map((line) => JSON.parse(line) as AuditEntry & { at: string });
    },
  };
}
