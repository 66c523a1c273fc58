import type { Sender } from './sender.js';

/** Who started the work. Set by trusted code (the channel adapter), never read from a payload. */
/** `system`: another system through the HTTP API (a signed webhook request). */
export type Origin = 'user' | 'schedule' | 'system';

/**
 * A file or media item referenced by a message; downloaded on demand by the channel (`Channel.downloadMedia`).
 * `mimeType` and `fileName` are what the sender's app claims: the type is decided from the content.
 */
export type MediaReference = {
  readonly kind: 'photo' | 'document' | 'voice' | 'audio' | 'video' | 'video-note' | 'sticker' | 'other';
  readonly id: string;
  readonly fileName?: string;
  readonly mimeType?: string;
  readonly sizeBytes?: number;
  /** Set when the platform said the file is over what a bot may download: it is described, never fetched. */
  readonly overPlatformLimit?: boolean;
};

/** A message the user replied to or quoted. */
export type Quote = {
  readonly messageId: string;
  readonly text: string;
  readonly isFromBot: boolean;
};

/** Fields every inbound event carries. `origin` and `unattended` are trust flags: typed, set by our code. */
export type Envelope = {
  readonly id: string;
  readonly traceId: string;
  /** ISO 8601 time the event was created. */
  readonly at: string;
  readonly channel: string;
  readonly chatId: string;
  readonly sessionKey: string;
  readonly origin: Origin;
  /** True when no person is watching the turn (schedules, webhooks): risky tools fail closed. */
  readonly unattended: boolean;
  /** The message id on the platform, for threading replies under it. */
  readonly messageId?: string;
  readonly threadId?: string;
  /** Set by the inbound journal when it runs the event again after a restart: side effects are looked up in the store. */
  readonly redelivered?: boolean;
  /** The platform payload, for debugging only; never consulted for decisions. */
  readonly raw?: unknown;
};

/** A chat message from a person. */
export type MessageReceived = Envelope & {
  readonly type: 'message-received';
  readonly sender: Sender;
  readonly text: string;
  readonly media: readonly MediaReference[];
  readonly isGroup: boolean;
  readonly mentioned: boolean;
  readonly quoted?: Quote;
  /**
   * Who pays for the turn when not the sender and chat the payload names: a webhook's client (its ids are the
   * caller's choice). Set by the channel adapter; budgets count the turn for user and chat `<channel>:<billedTo>`.
   */
  readonly billedTo?: string;
  /**
   * The caller scope the turn runs in instead of its channel's: one the channel declares in its traits (`callerScopes`,
   * e.g. an A2A key's): its tools, and its budget as the job of that name. Set by the channel adapter from the caller
   * it authenticated, never from a payload.
   */
  readonly toolScope?: string;
};

/** A button press (or a numbered reply) answering an approval card or a question, or a fact's Forget button under `/memory`. */
export type ActionClicked = Envelope & {
  readonly type: 'action-clicked';
  readonly sender: Sender;
  readonly action: 'approval' | 'question' | 'memory-forget';
  /** The approval id, question id or fact id the press belongs to. */
  readonly actionId: string;
  /** For approvals: once | session | always | deny. For questions: the option's index as text. For a fact: `forget`. */
  readonly choice: string;
  /** The platform message that carried the buttons. */
  readonly cardMessageId?: string;
  /** Platform handle to acknowledge the press (Telegram callback query id). */
  readonly acknowledgementId?: string;
};

/** A cron job fired. */
export type ScheduleFired = Envelope & {
  readonly type: 'schedule-fired';
  readonly jobId: string;
  readonly prompt: string;
  /** Set by the scheduler for jobs a person approved: the hash of the exact content approved. */
  readonly approvedContentHash?: string;
  /** The person who created the job (by the schedule_task tool), whose user budget its runs count against too. */
  readonly createdBy?: string;
};

/**
 * A named hook's request (`POST /hooks/<name>`), verified and matched: the hook's prompt with the payload's values
 * inserted, run unattended in the hook's own session and answered in its `deliverTo` chat (the envelope's channel).
 */
export type HookReceived = Envelope & {
  readonly type: 'hook-received';
  readonly hookName: string;
  /** The sender's delivery id (X-GitHub-Delivery, the Stripe event id, webhook-id), or one the hook made. */
  readonly deliveryId: string;
  /** The rendered prompt: the hook's own text with external, untrusted values from the payload inserted. */
  readonly prompt: string;
  /** A link back to what the payload is about (its html_url), shown with the answer. */
  readonly link?: string;
};

/** Internal: a suspended turn may continue (an approval was decided or a question answered). Never built from a payload. */
export type TurnResumed = Envelope & {
  readonly type: 'turn-resumed';
  readonly suspensionId: string;
};

/**
 * Internal: a parent turn handed work to a sub-task (the `delegate` tool). Journaled like any event, so a sub-task
 * interrupted by a crash runs again after the restart; its session key is its own (delegationSessionKey). Never built
 * from a payload.
 */
export type SubTaskStarted = Envelope & {
  readonly type: 'sub-task-started';
  /** The parent turn's suspension that waits for this sub-task's result. */
  readonly parentSuspensionId: string;
  /** This sub-task's id, unique under its parent. */
  readonly subTaskId: string;
  /** The parent turn's session: the sub-task's chain and results belong to it. */
  readonly parentSessionKey: string;
};

/** Every way work enters the runtime. */
export type InboundEvent = MessageReceived | ActionClicked | ScheduleFired | HookReceived | TurnResumed | SubTaskStarted;

/** The `type` tags of inbound events. */
export type InboundEventType = InboundEvent['type'];
