import type { ApprovalChoice } from '../events/approval-card.js';
import { assertNever } from '../events/assert-never.js';
import { answerCallerQuestionByText, answerCallerQuestionPress } from './answer-caller-question.js';
import { hookSubject } from '../events/hook-subject.js';
import type { ActionClicked, HookReceived, InboundEvent, MessageReceived, ScheduleFired } from '../events/inbound-event.js';
import { hookMessage } from './hook-message.js';
import { answerQuestion, resolveAnswer } from './answer-question.js';
import { answerElicitation, mayAnswerQuestion, splitQuestionId } from './elicit-in-chat.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { Messages } from '../i18n/messages.js';
import type { AttachmentReading } from '../media/create-attachment-reader.js';
import { forgetPressed } from './forget-fact-press.js';
import type { Target } from '../events/target.js';
import { decideApproval, sweepExpiredApprovals } from './decide-approval.js';
import { handleCommand } from './handle-command.js';
import { parseNumberedReply, pickNumberedApproval } from './pick-numbered-approval.js';
import { recoverSuspendedRun } from './recover-suspended-run.js';
import { resumeSettledTurns, resumeTurn } from './resume-turn.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import { runAndDeliver } from './turn-flow.js';
import { runSubTask } from './run-sub-task.js';
import { cancelTurn } from './cancel-turn.js';
import { createRunningTurns } from './running-turns.js';
import type { TurnCancellation, TurnCancelRequest } from '../events/turn-control.js';
import type { TurnScope } from './turn-scope.js';

const approvalChoices: readonly string[] = ['once', 'session', 'always', 'deny'];

/** The agent: turns inbound events into turns, decisions, answers and resumptions. */
export interface AgentRuntime {
  /** The bus handler: one event, in its session's lane. */
  handle(event: InboundEvent): Promise<void>;
  /** Expires overdue approvals and resumes their turns; returns how many expired. */
  sweepExpired(): Promise<number>;
  /** Queues every decided approval and answered question whose turn has not finished; returns how many. */
  resumeSettled(): Promise<number>;
  /** Stops a session's work for whoever started it: its running turn aborted, its suspended turns closed for good (cancelTurn). */
  cancelTurn(request: TurnCancelRequest): Promise<TurnCancellation>;
}

/** Options beyond the dependencies. */
export type AgentRuntimeOptions = { readonly numberedApprovalChannels?: ReadonlySet<string> };

/** Cuts a message past the per-message budget, with a note the model reads. */
function cutOversized(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[The message was cut here: ${text.length - maxChars} more characters were not kept.]`;
}

/** Creates the agent runtime over its dependencies. */
export function createAgentRuntime(given: RuntimeDependencies, options: AgentRuntimeOptions = {}): AgentRuntime {
  const deps: RuntimeDependencies = given.runningTurns === undefined ? { ...given, runningTurns: createRunningTurns({ now: given.now }) } : given;
  const numbered = options.numberedApprovalChannels ?? new Set<string>();

  async function onMessage(event: MessageReceived): Promise<void> {
    if (await handleCommand(deps, event)) return;
    const messages = deps.messagesFor(event.channel);
    const replyTarget = { channel: event.channel, chatId: event.chatId, threadId: event.threadId, replyToMessageId: event.messageId };

    // The history is read beside the open-question check, so both go to the store together (one round trip less
    // before the model call). Only for messages without attachments: reading those may take long, and the turn then
    // reads the history when it starts. An answer to a question or a card leaves the read unused.
    const history = event.media.length === 0 ? deps.history.load(event.sessionKey) : undefined;
    history?.catch(() => undefined);
    const questionId = await deps.openQuestions.get(event.sessionKey);
    if (questionId) {
      const question = await deps.suspensions.get(questionId);
      // An MCP server's request takes the typed text as it is: a number may be the value asked for.
      if (question?.kind === 'question' && question.elicitation !== undefined && question.answer === undefined && mayAnswerQuestion(question, event.sender.id)) {
        await answerElicitation(deps, { suspended: { ...question, elicitation: question.elicitation }, text: event.text, answeredById: event.sender.id, answeredByName: event.sender.displayName, replyTarget });
        return;
      }
      if (question?.kind === 'question' && question.elicitation === undefined && question.userId === event.sender.id) {
        await answerQuestion(deps, { questionId, answer: resolveAnswer(event.text, question.options ?? []), answeredById: event.sender.id, answeredByName: event.sender.displayName, replyTarget, silent: true });
        return;
      }
    }
    if (await answerCallerQuestionByText(deps, { event, replyTarget })) return;

    const numberedReply = numbered.has(event.channel) ? parseNumberedReply(event.text) : undefined;
    if (numberedReply) {
      const pick = await pickNumberedApproval(deps.approvals, { reply: numberedReply, chat: { channel: event.channel, chatId: event.chatId }, senderId: event.sender.id });
      if (pick.kind === 'decide') {
        await decideApproval(deps, { approvalId: pick.approvalId, choice: numberedReply.choice, deciderId: event.sender.id, deciderName: event.sender.displayName, replyTarget });
        return;
      }
      if (pick.kind === 'ambiguous') {
        await deps.outbox.send({ type: 'reply', target: replyTarget, text: deps.messagesFor(event.channel).numberedReplyAmbiguous(pick.approvalIds), kind: 'final', causationId: event.id });
        return;
      }
    }

    const quote = event.quoted ? `\n\n[Replying to: "${event.quoted.text.slice(0, 500)}"]` : '';
    const attachments = await readAttachments(event, messages);
    for (const line of attachments.lines) await deps.outbox.send({ type: 'reply', target: replyTarget, text: line, kind: attachments.onlyUnheardVoice ? 'final' : 'message', causationId: event.id });
    // A voice note that could not be heard and nothing else: the line above was the whole answer.
    if (attachments.onlyUnheardVoice) return;
    const text = cutOversized(event.text, deps.maxMessageChars);
    if (text !== event.text) await deps.outbox.send({ type: 'reply', target: replyTarget, text: messages.messageCut(deps.maxMessageChars), kind: 'message' });
    const content = `${text}${quote}${attachments.text}`.trim();
    const userMessage: ChatMessage = attachments.images.length > 0 ? { role: 'user', content, images: attachments.images } : { role: 'user', content };
    // A caller scope (an A2A key): its tools, and its model calls count as its job (its own budget).
    const toolScope = event.toolScope === undefined ? {} : { toolScope: event.toolScope, jobId: event.toolScope, visibleTools: deps.visibleToolsFor(event.toolScope) };
    await runAndDeliver(deps, { ...scopeFor(event, replyTarget, event.sender.id, event.sender.displayName, event.isGroup), authoredText: text, ...toolScope }, [userMessage], history);
  }

  async function readAttachments(event: MessageReceived, messages: Messages): Promise<Pick<AttachmentReading, 'text' | 'images' | 'lines' | 'onlyUnheardVoice'>> {
    if (event.media.length === 0) return { text: '', images: [], lines: [], onlyUnheardVoice: false };
    // Without a reader the model is told the attachments are there, so it does not answer as if the caption were all.
    if (!deps.readAttachments) return { text: event.media.map((item) => `\n[Attached ${item.kind}${item.fileName ? ` "${item.fileName}"` : ''}: you cannot see its content.]`).join(''), images: [], lines: [], onlyUnheardVoice: false };
    return deps.readAttachments({ event, messages });
  }

  async function onAction(event: ActionClicked): Promise<void> {
    const replyTarget = { channel: event.channel, chatId: event.chatId, threadId: event.threadId };
    if (event.action === 'approval') {
      if (!approvalChoices.includes(event.choice)) {
        await deps.outbox.send({ type: 'action-answered', target: replyTarget, acknowledgementId: event.acknowledgementId, text: deps.messagesFor(event.channel).choiceNotOffered, isAlert: true });
        return;
      }
      await decideApproval(deps, {
        approvalId: event.actionId,
        choice: event.choice as ApprovalChoice,
        deciderId: event.sender.id,
        deciderName: event.sender.displayName,
        replyTarget,
        acknowledgementId: event.acknowledgementId,
        ...(event.cardMessageId === undefined ? {} : { cardMessageId: event.cardMessageId }),
      });
      return;
    }
    if (event.action === 'memory-forget') {
      await answerForgetPress(event, replyTarget);
      return;
    }
    if (await answerCallerQuestionPress(deps, { event, replyTarget })) return;
    const question = await deps.suspensions.get(splitQuestionId(event.actionId).suspensionId);
    const options = question?.kind === 'question' ? (question.options ?? []) : [];
    await answerQuestion(deps, {
      questionId: event.actionId,
      answer: resolveAnswer(String(Number(event.choice) + 1), options),
      answeredById: event.sender.id,
      answeredByName: event.sender.displayName,
      replyTarget,
      acknowledgementId: event.acknowledgementId,
    });
  }

  async function answerForgetPress(event: ActionClicked, replyTarget: Target): Promise<void> {
    const messages = deps.messagesFor(event.channel).memory;
    const outcome = deps.memory === undefined ? undefined : await forgetPressed({ facts: deps.memory.facts, exchanges: deps.memory.exchanges, audit: deps.memory.audit, approvalRouteFor: deps.approvalRouteFor }, event);
    const text = outcome === undefined ? messages.off : outcome.kind === 'forgotten' ? messages.pressForgotten(outcome.statement) : outcome.kind === 'not-yours' ? messages.pressNotYours : messages.pressGone;
    await deps.outbox.send({ type: 'action-answered', target: replyTarget, acknowledgementId: event.acknowledgementId, text, isAlert: outcome?.kind !== 'forgotten' });
  }

  async function onSchedule(event: ScheduleFired): Promise<void> {
    const target = { channel: event.channel, chatId: event.chatId };
    const message: ChatMessage = { role: 'user', content: `[Scheduled task ${event.jobId}] ${event.prompt}` };
    await runAndDeliver(deps, scopeFor(event, target, `schedule:${event.jobId}`, `schedule ${event.jobId}`, false), [message]);
  }

  async function onHook(event: HookReceived): Promise<void> {
    const target = { channel: event.channel, chatId: event.chatId, ...(event.threadId === undefined ? {} : { threadId: event.threadId }) };
    const subject = hookSubject(event.hookName);
    const scope = scopeFor(event, target, subject, `hook ${event.hookName}`, false);
    // Its own tools (default minimal) and its own job budget; the answer names the hook and links back.
    const replyPrefix = `[hook ${event.hookName}]${event.link === undefined ? '' : ` ${event.link}`}`;
    await runAndDeliver(deps, { ...scope, jobId: subject, toolScope: subject, replyPrefix, visibleTools: deps.visibleToolsFor(subject) }, [hookMessage(event)]);
  }

  function scopeFor(event: InboundEvent, target: TurnScope['target'], userId: string, userName: string, isGroup: boolean): TurnScope {
    return {
      traceId: event.traceId,
      sessionKey: event.sessionKey,
      target,
      origin: event.origin,
      unattended: event.unattended,
      userId,
      userName,
      channel: event.channel,
      chatId: event.chatId,
      isGroup,
      ...(event.type === 'schedule-fired' ? { jobId: event.jobId } : {}),
      ...billingOf(event),
      causationId: event.id,
      visibleTools: deps.visibleToolsFor(event.channel),
      runKey: event.id,
      callCounter: { next: 0 },
      services: deps.servicesFor({ sessionKey: event.sessionKey, target, userId }),
      // A re-run after a crash may find its side effects recorded by the process that died.
      traceStartedHere: event.redelivered !== true,
      queuedAt: event.at,
    };
  }

  return {
    async handle(event) {
      // A re-run whose first run already left its turn waiting on a person (its instance died after the card) runs nothing again.
      if (event.redelivered === true && event.type !== 'turn-resumed' && (await recoverSuspendedRun(deps, event))) return;
      switch (event.type) {
        case 'message-received':
          return onMessage(event);
        case 'action-clicked':
          return onAction(event);
        case 'schedule-fired':
          return onSchedule(event);
        case 'hook-received':
          return onHook(event);
        case 'turn-resumed':
          return resumeTurn(deps, event);
        case 'sub-task-started':
          return runSubTask(deps, event);
        default:
          return assertNever(event, 'inbound event');
      }
    },
    sweepExpired: () => sweepExpiredApprovals(deps),
    resumeSettled: () => resumeSettledTurns(deps),
    cancelTurn: (request) => cancelTurn(deps, request),
  };
}

/** Who an event's turn is billed to besides its job, when not its sender: a webhook's client, a job's creator. Pure. */
function billingOf(event: InboundEvent): { readonly billedTo?: string } {
  const billedTo = event.type === 'message-received' ? event.billedTo : event.type === 'schedule-fired' ? event.createdBy : undefined;
  return billedTo === undefined ? {} : { billedTo };
}
