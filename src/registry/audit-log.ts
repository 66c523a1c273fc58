import { appendFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { maskSecrets } from '../logging/mask-secrets.js';

/** One line of the audit log: a tool execution, or an approval requested or decided. */
export type AuditEntry = {
  readonly kind: 'tool-call' | 'approval-requested' | 'approval-decided' | 'approval-expired';
  readonly traceId?: string;
  readonly sessionKey?: string;
  readonly userId?: string;
  readonly channel?: string;
  readonly tool?: string;
  readonly arguments?: unknown;
  readonly outcome: string;
  readonly durationMs?: number;
  readonly attempts?: number;
  /** How the call was cleared: policy, grant, approval (with who), auto-approve. */
  readonly approvalSource?: string;
  readonly approvalId?: string;
  readonly decidedBy?: string;
  readonly error?: string;
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
  let writing: Promise<void> = mkdir(options.directory, { recursive: true }).then(() => undefined);
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

  return {
    record(entry) {
      const masked = entry.arguments === undefined ? entry : { ...entry, arguments: maskSecrets(entry.arguments, options.secrets) };
      pending.push(`${JSON.stringify({ at: new Date().toISOString(), ...masked })}\n`);
      scheduleWrite();
    },
    async flush() {
      scheduleWrite();
      await writing;
    },
    async recent(limit) {
      await this.flush();
      const text = await readFile(file, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line.length > 0)
        .slice(-limit)
        .map((line) => JSON.parse(line) as AuditEntry & { at: string });
    },
  };
}
