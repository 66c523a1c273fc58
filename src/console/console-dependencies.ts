import type { ConsoleDecisionInput } from '../agent/decide-in-console.js';
import type { ConsolePerson } from '../agent/runtime-dependencies.js';
import type { DecisionResult } from '../approvals/approvals-service.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { BudgetsConfig } from '../config/config-schema.js';
import type { HealthReport } from '../gateway/health-report.js';
import type { InstanceSighting } from './instance-roster.js';
import type { Locale } from '../i18n/messages.js';
import type { TurnParking } from '../journal/create-turn-parking.js';
import type { Logger } from '../logging/create-logger.js';
import type { AuditLog } from '../registry/audit-log.js';
import type { ScheduledJob, JobRun } from '../scheduling/scheduled-job.js';
import type { KeyValueNamespace, Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';

/** A job as the schedules page lists it: the port's view plus its run history and pause. */
export type ConsoleJob = ScheduledJob & { readonly done?: boolean; readonly recentRuns?: readonly JobRun[]; readonly paused?: { readonly by: string; readonly at: string } };

/** What an operation on a job found. */
export type JobOperation = { readonly ok: boolean; readonly reason?: string };

/** What the schedules page may do: list every job, fire one now, pause, resume or delete one (the scheduler's own operations). */
export type ConsoleSchedules = {
  jobs(): Promise<readonly ConsoleJob[]>;
  runNow(jobId: string): Promise<JobOperation>;
  pause(jobId: string, by: string): Promise<JobOperation>;
  resume(jobId: string): Promise<JobOperation>;
  remove(jobId: string): Promise<JobOperation>;
};

/** Everything the web console reads and acts through, handed in by the composition root (all existing services). */
export type ConsoleDependencies = {
  readonly store: Store;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly locale: Locale;
  readonly timezone: string;
  /** Whether this person is a configured approver of their channel (from config, via the channel plug-in). */
  readonly isApprover: (person: ConsolePerson) => boolean;
  /** Secrets to mask in arguments shown on cards (the audit log masks its own). */
  readonly secrets: readonly string[];
  readonly approvalRecords: KeyValueNamespace<PendingApproval>;
  /** The chat buttons' path: the approvals service's compare-and-set, cards edited, the turn resumed. */
  readonly decide: (input: ConsoleDecisionInput) => Promise<DecisionResult>;
  readonly audit: Pick<AuditLog, 'recent'>;
  readonly budgets: BudgetControl;
  /** The configured budgets, drawn on the usage charts. */
  readonly budgetsConfig: BudgetsConfig;
  readonly parking: TurnParking;
  readonly health: () => Promise<HealthReport>;
  /** Every instance on this store that has the console on, as last seen (a cluster's members and their roles). */
  readonly instances: () => Promise<readonly InstanceSighting[]>;
  readonly schedules: ConsoleSchedules;
  readonly telemetry: Pick<Telemetry, 'onAudit' | 'onTurnFinished' | 'onModelUsage'>;
  /** Sessions last this long. */
  readonly sessionLifetimeMs: number;
  /** Whether the browser reaches the console over https (console.publicUrl): the cookie is then Secure. */
  readonly secure: boolean;
};
