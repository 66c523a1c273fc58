import type { ApprovalCard } from './approval-card.js';
import type { Target } from './target.js';
import type { TurnFailure } from './turn-failure.js';

/** A button under a reply: pressing it comes back as an `action-clicked` event of this action and id. */
export type ReplyButton = { readonly label: string; readonly action: 'memory-forget'; readonly actionId: string };

/** Text for the chat. `final` ends the turn; `progress` is a draft later text replaces; `message` stands on its own mid-turn. */
export type ReplySent = {
  readonly type: 'reply';
  readonly target: Target;
  readonly text: string;
  readonly kind: 'final' | 'progress' | 'message';
  /** The inbound event this answers (the webhook's runId). */
  readonly causationId?: string;
  /** On a final reply that says the turn could not answer: why (the model, the store, a budget). */
  readonly failure?: TurnFailure;
  /** Buttons under the reply (the Forget button of each fact `/memory` lists), where the channel has buttons; others show the text alone. */
  readonly buttons?: readonly ReplyButton[];
};

/** Ask a person to approve a tool call. */
export type ApprovalRequested = {
  readonly type: 'approval-requested';
  readonly target: Target;
  readonly approval: ApprovalCard;
  readonly causationId?: string;
};

/** An approval was decided or expired: edit the card into its outcome line. */
export type ApprovalResolved = {
  readonly type: 'approval-resolved';
  readonly target: Target;
  readonly approvalId: string;
  readonly outcome: string;
  /** The card message to edit, when the channel reported one. */
  readonly cardMessageId?: string;
};

/** The model asked the person a question with options (ask_user). */
export type QuestionAsked = {
  readonly type: 'question-asked';
  readonly target: Target;
  readonly questionId: string;
  readonly text: string;
  readonly options: readonly string[];
  readonly causationId?: string;
};

/** The agent is working. Failure to show it never matters. */
export type TypingStarted = {
  readonly type: 'typing';
  readonly target: Target;
};

/** The answer to a button press: Telegram shows it as a toast (or an alert when refused); others as text when it is an alert. */
export type ActionAnswered = {
  readonly type: 'action-answered';
  readonly target: Target;
  /** The platform handle of the press (Telegram callback query id), when there is one. */
  readonly acknowledgementId?: string;
  readonly text: string;
  readonly isAlert: boolean;
};

/** A file for the chat (the send_file tool): a checked path inside the workspace, its type decided from its content. */
export type FileSent = {
  readonly type: 'file';
  readonly target: Target;
  /** Absolute path of a regular file the channel reads when it sends. */
  readonly path: string;
  readonly fileName: string;
  readonly mediaType: string;
  readonly sizeBytes: number;
  readonly caption?: string;
  readonly causationId?: string;
};

/** Everything the runtime asks a channel to show. */
export type OutboundEvent = ReplySent | ApprovalRequested | ApprovalResolved | QuestionAsked | TypingStarted | ActionAnswered | FileSent;

/** The honest result of a send: delivered with the platform's message id, or failed with why. */
export type Delivery =
  | { readonly ok: true; readonly messageId?: string; readonly messageIds?: readonly string[] }
  | { readonly ok: false; readonly error: string; readonly retryable: boolean };
