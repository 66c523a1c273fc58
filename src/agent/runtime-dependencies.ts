import type { ApprovalsService } from '../approvals/approvals-service.js';
import type { CallerQuestions } from '../approvals/caller-questions.js';
import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import type { MessageBus } from '../bus/message-bus.js';
import type { CancelBroadcast } from '../events/cancel-broadcast.js';
import type { Outbox, TurnFinished } from '../events/outbox.js';
import type { Target } from '../events/target.js';
import type { ApprovalRouteFor } from '../approvals/approval-route.js';
import type { SmartApprovals } from '../reviewer/smart-approvals.js';
import type { Messages } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import type { ToolServices } from '../registry/tool-context.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { ModelPort, UsageAttribution } from '../model/model-port.js';
import type { ResumeRequests } from './resume-requests.js';
import type { RunningTurns } from './running-turns.js';
import type { SessionHistory } from './session-history.js';
import type { HistoryCompactor } from '../memory/create-history-compactor.js';
import type { FactExtractor } from '../memory/create-fact-extractor.js';
import type { RecallRequest } from '../memory/recall-facts.js';
import type { FactStore } from '../memory/create-fact-store.js';
import type { ExchangeArchive, NewExchange } from '../memory/create-exchange-archive.js';
import type { IdentityLinks } from '../memory/create-identity-links.js';
import type { LinkCodes } from '../memory/create-link-codes.js';
import type { FactListing } from './memory-commands.js';
import type { AuditEntry } from '../registry/audit-log.js';
import type { AttachmentReader } from '../media/create-attachment-reader.js';
import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { TurnParking } from '../journal/create-turn-parking.js';
import type { TurnTracer } from '../telemetry/turn-tracer.js';
import type { DelegationLimits } from '../policy/plan-delegation.js';
import type { SubTaskStarted } from '../events/inbound-event.js';
import type { EmitResult } from '../events/channel.js';

/** Settings of every turn, read from config. */
export type TurnSettings = {
  readonly systemPrompt: string;
  readonly timezone: string;
  readonly maxIterations: number;
  /** Longest user message the model reads; longer ones are cut with a note (part of the history budget). */
  readonly maxMessageChars: number;
  /** Longest a turn may run before its model calls and tools are aborted and the user is told. */
  readonly turnTimeoutMs: number;
  readonly botName: string;
  /** Channels that want streamed drafts (`reply` with kind `progress`). */
  readonly streamingChannels?: ReadonlySet<string>;
  /** Interrupted starts after which a resumption is parked instead of run again (`bus.parkAfterInterruptions`, default 2). */
  readonly parkAfterInterruptions?: number;
  /** Channels whose cards and questions are answered with numbered replies (no buttons). */
  readonly numberedChannels?: ReadonlySet<string>;
  /** Depth and fan-out of sub-tasks (`agent.delegation`); absent: the defaults (2 deep, 3 side by side). */
  readonly delegation?: DelegationLimits;
};

/** What a turn needs of memory (`memory.enabled`): fact extraction, the exchange archive, compaction, recall, and the facts for `/memory` and `/forget`. */
export type TurnMemory = {
  readonly extractFacts: FactExtractor;
  /** Archives a person's own message and the final answer to it, for recall once it has left the history. */
  readonly archiveExchange: (exchange: NewExchange, attribution: UsageAttribution) => Promise<void>;
  readonly compactor: HistoryCompactor;
  /** The remembered facts this turn may see, most relevant first, as a section of the system prompt ('' when none). */
  readonly recall: (request: RecallRequest) => Promise<string>;
  /** The facts themselves, for `/memory` and `/forget`. */
  readonly facts: FactStore;
  /** The archived exchanges, for `/forget`. */
  readonly exchanges: ExchangeArchive;
  /** Records what `/forget` removed and which identities `/link` joined. */
  readonly audit: (entry: AuditEntry) => void;
  /** The last `/memory` list each person saw per chat, for `/forget <number>` (numbered replies where there are no buttons). */
  readonly listings: KeyValueNamespace<FactListing>;
  /** Identities linked across channels (`/link`), and the one-time codes that link them. */
  readonly identities: IdentityLinks;
  readonly linkCodes: LinkCodes;
};

/** What turns keep in the store: history, pending approvals, suspended turns, open questions, parked turns. */
export type TurnState = {
  readonly history: SessionHistory;
  /** `memory.enabled`: facts from each message's own words, and compaction of a history past its budget; absent: the oldest exchanges are dropped. */
  readonly memory?: TurnMemory;
  readonly approvals: ApprovalsService;
  readonly suspensions: KeyValueNamespace<SuspendedTurn>;
  /** Session key → the id of the question waiting there. */
  readonly openQuestions: KeyValueNamespace<string>;
  /** Turns set aside after repeated interruptions, for `/parked` (approvers only); absent in runtimes built without them. */
  readonly parkedTurns?: TurnParking;
  /** Questions MCP callers asked in chats (ask_person), answered by a press or a reply there; absent without `mcp.serve`. */
  readonly callerQuestions?: CallerQuestions;
  /** The turns running in this process, for a cancel of their session (TurnControl); absent: createAgentRuntime makes one. */
  readonly runningTurns?: RunningTurns;
  /** Tells the other instances of a cluster about a cancel (their turns of the session stop too); absent: one process. */
  readonly cancelBroadcast?: CancelBroadcast;
};

/** How the runtime reaches people and queues work: the outbox, the bus, resumptions, the catalogue, the clock, the log. */
export type TurnDelivery = {
  readonly outbox: Outbox;
  readonly bus: MessageBus;
  /** Queues resumptions of suspended turns, once per suspension at a time. */
  readonly resumeRequests: ResumeRequests;
  /** Journals and queues a sub-task's turn (the durable intake); absent: published on the bus, not journaled. */
  readonly startSubTask?: (event: SubTaskStarted) => Promise<EmitResult>;
  /** This process's id, for claims on shared records (approval resumptions). */
  readonly instanceId: string;
  readonly logger: Logger;
  readonly messagesFor: (channel: string) => Messages;
  /** Listeners told when a turn ends (webhook waits, cron run records). */
  readonly turnFinished: (report: TurnFinished) => void;
  readonly now: () => Date;
  /** Spans of turns and approval waits (OpenTelemetry); absent when tracing is off. */
  readonly tracer?: TurnTracer;
};

/** The model and the tools a turn works with, and what each channel may see. */
export type TurnTools = {
  readonly model: ModelPort;
  readonly registry: ToolRegistry;
  readonly visibleToolsFor: (channel: string) => ReadonlySet<string>;
  readonly servicesFor: (input: { readonly sessionKey: string; readonly target: Target; readonly userId: string }) => ToolServices;
  /** Turns a message's photos, voice notes and files into model input; without it the model is told only that they exist. */
  readonly readAttachments?: AttachmentReader;
};

/** Who decides and what is allowed: approval routing, the risk note on cards, smart approvals, budgets. */
export type TurnGovernance = {
  /** Who decides approvals raised in this channel by this requester, and where the cards go. */
  readonly approvalRouteFor: ApprovalRouteFor;
  /** A short model-written risk explanation for the card; resolves to a fallback on timeout or failure. */
  readonly explainRisk: (input: { readonly toolName: string; readonly summary: string; readonly argumentsText: string; readonly risk: string; readonly attribution?: UsageAttribution }) => Promise<string>;
  /** Absent in manual mode. */
  readonly smartApprovals?: SmartApprovals;
  /** Usage accounting and budgets; absent in runtimes built without them (every check then allows). */
  readonly budgets?: BudgetControl;
  /** Issues one-time web console login links (`/console`); absent while the console is off. */
  readonly consoleLinks?: ConsoleLinkIssuer;
};

/** Who a console link is for: a person as their channel knows them. */
export type ConsolePerson = { readonly channel: string; readonly userId: string; readonly displayName: string };

/** Issues a one-time console link for a person, or says why not (no gateway in this process, the store refused it). */
export type ConsoleLinkIssuer = (person: ConsolePerson) => Promise<{ readonly ok: true; readonly url: string; readonly minutes: number } | { readonly ok: false; readonly reason: 'no-gateway' | 'not-saved' }>;

/**
 * Everything the agent runtime is built from, assembled by the composition root: the five ports together. Each part of
 * the runtime asks only for the ports it uses.
 */
export type RuntimeDependencies = TurnSettings & TurnState & TurnDelivery & TurnTools & TurnGovernance;

export type { ApprovalRoute, ApprovalRouteFor } from '../approvals/approval-route.js';
export type { SmartApprovals } from '../reviewer/smart-approvals.js';
