import { hostname } from 'node:os';
import { join } from 'node:path';
import { createResumeRequests, type ResumeRequests } from '../agent/resume-requests.js';
import { createParkedResumptions } from '../approvals/parked-resumptions.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import type { ChannelConfigSection } from '../config/channel-config-section.js';
import { collectSecrets } from '../config/collect-secrets.js';
import type { Config } from '../config/config-schema.js';
import { createId } from '../events/create-id.js';
import type { Messages } from '../i18n/messages.js';
import { createTurnParking, type TurnParking } from '../journal/create-turn-parking.js';
import { createDeliveredReplies, type DeliveredReplies } from '../journal/delivered-replies.js';
import { createInboundJournal, type JournalEntry } from '../journal/inbound-journal.js';
import { createParkedTurns, type ParkedTurn } from '../journal/parked-turns.js';
import type { Logger } from '../logging/create-logger.js';
import { type AuditLog, createAuditLog } from '../registry/audit-log.js';
import { isClaimHeld } from '../cluster/turn-claim.js';
import { createStore } from '../store/create-store.js';
import type { Store } from '../store/key-value-namespace.js';
import { createTelemetry, type Telemetry } from '../telemetry/telemetry.js';
import { type Budgets, createBudgets } from './create-budgets.js';
import { createOutbox, type RoutingOutbox } from './create-outbox.js';
import type { Lifecycle } from './create-lifecycle.js';
import { type EventBus, openEventBus } from './open-event-bus.js';

/** The audit log as the app uses it: every entry also goes to telemetry. */
export type AppAudit = AuditLog;

/** What every other part stands on: the store, telemetry, the audit log, budgets, the outbox, the journal and the bus. */
export type Infrastructure = {
  readonly store: Store;
  readonly telemetry: Telemetry;
  readonly instanceId: string;
  readonly audit: AppAudit;
  readonly budgets: Budgets;
  readonly delivered: DeliveredReplies;
  readonly outbox: RoutingOutbox;
  readonly parking: TurnParking;
  readonly events: EventBus;
  readonly resumeRequests: ResumeRequests;
  /** Every configured secret (core and channels), masked wherever arguments are shown (audit log, web console). */
  readonly secrets: readonly string[];
};

/**
 * Opens the infrastructure in order, each part deferred on the lifecycle as it opens (so a failure further on closes
 * it). `messagesFor` and `requeued` are read late: the channels' locales and the runtime are known after this.
 */
export async function openInfrastructure(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly lifecycle: Lifecycle;
  /** The channels' config sections: their declared secrets are masked in the audit log too. */
  readonly channelSections: readonly ChannelConfigSection[];
  readonly messagesFor: (channel: string) => Messages;
  /** A parked turn was put back: queue it again (the journal's redrive and the resumption sweep). */
  readonly requeued: () => void;
  /** The budgets channels declare for their callers, by scope name. */
  readonly callerBudgets?: Readonly<Record<string, NonNullable<Config['budgets']['job']>>>;
}): Promise<Infrastructure> {
  const { config, logger, now, lifecycle } = input;
  const store = await createStore({
    url: config.storage.url,
    dataDir: config.storage.dataDir,
    operationTimeoutMs: config.storage.operationTimeoutMs,
    onError: (error) => logger.warn({ code: error.code }, error.message),
  });
  lifecycle.defer('the store', () => store.close());
  const telemetry = createTelemetry();
  const instanceId = `${hostname()}-${process.pid}-${createId().slice(0, 8)}`;
  const secrets = collectSecrets(config, input.channelSections);
  const fileAudit = createAuditLog({ directory: join(config.storage.dataDir, 'audit'), secrets });
  lifecycle.defer('the audit log', () => fileAudit.flush());
  const audit: AppAudit = {
    ...fileAudit,
    record(entry) {
      fileAudit.record(entry);
      telemetry.emitAudit(entry);
    },
  };
  const budgets = await createBudgets({ config, store, telemetry, audit, logger, now, ...(input.callerBudgets === undefined ? {} : { callerBudgets: input.callerBudgets }) });
  lifecycle.defer('budgets', async () => {
    await budgets.control.ledger.flush();
    await budgets.close();
  });
  const delivered = createDeliveredReplies(store.namespace<number>('delivered-replies'), config.storage.dedupeHours * 60 * 60_000);
  const outbox = createOutbox({ logger, isClaimHeld, onFinalDelivered: (eventId) => delivered.record(eventId) });
  const journal = createInboundJournal(store.namespace<JournalEntry>('inbound-journal'));
  // Turns interrupted too often are set aside, their chat told once (in the channel's language, known once channels are wired).
  const parking = createTurnParking({
    parked: createParkedTurns(store.namespace<ParkedTurn>('parked-turns'), now),
    journal,
    audit: audit.record,
    logger,
    notify: { outbox, messagesFor: input.messagesFor, turnFinished: (report) => telemetry.emitTurnFinished(report) },
    delivered,
    resumptions: createParkedResumptions({ approvals: store.namespace<PendingApproval>('approvals'), suspensions: store.namespace<SuspendedTurn>('suspended-turns'), now }),
    requeued: input.requeued,
  });
  const events = await openEventBus({ config, logger, journal, park: parking.park });
  lifecycle.defer('the event bus', async () => {
    await events.intake.flush();
    await events.close();
  });
  const resumeRequests = createResumeRequests({ bus: events.bus, logger, now });
  return { store, telemetry, instanceId, audit, budgets, delivered, outbox, parking, events, resumeRequests, secrets };
}
