import { randomUUID } from 'node:crypto';
import { type Artifact, type Message, type Part, Role, type Task, type TaskStatus, TaskState } from '@a2a-js/sdk';
import { assertNever } from '../../src/events/assert-never.js';
import type { TurnOutcome } from './task-turns.js';

/**
 * Metadata on the status message of a task that waits for this agent's own approvers (not for the caller): a client
 * that knows it (echo-agent's a2a__ tools) keeps waiting instead of asking its person. The same key is read in
 * tools/a2a/task-text.ts.
 */
export const waitingForApproverKey = 'echo-agent/waiting-for';

/** The id of the artifact that carries a task's answer. */
const answerArtifactId = 'answer';

/** A text part. Pure. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** The text of a message's text parts (other parts are not read). Pure. */
export function textOfParts(parts: readonly Part[]): string {
  return parts
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n')
    .trim();
}

/** A message from this agent on a task. Pure. */
export function agentMessage(task: { readonly taskId: string; readonly contextId: string }, text: string): Message {
  return { messageId: randomUUID(), contextId: task.contextId, taskId: task.taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** A status with its message and time. Pure. */
export function taskStatus(state: TaskState, message: Message | undefined, now: Date): TaskStatus {
  return { state, message, timestamp: now.toISOString() };
}

/** A fresh task, submitted with the caller's message. Pure. */
export function newTask(input: { readonly taskId: string; readonly contextId: string; readonly message: Message; readonly now: Date }): Task {
  return { id: input.taskId, contextId: input.contextId, status: taskStatus(TaskState.TASK_STATE_SUBMITTED, undefined, input.now), artifacts: [], history: [input.message], metadata: undefined };
}

/** What an outcome does to its task: the new status, and the answer artifact when the turn answered. Pure. */
export function changeFor(outcome: TurnOutcome, task: { readonly taskId: string; readonly contextId: string }, now: Date): { readonly status: TaskStatus; readonly artifact?: Artifact } {
  switch (outcome.kind) {
    case 'answered': {
      const message = agentMessage(task, outcome.text);
      if (outcome.failed) return { status: taskStatus(TaskState.TASK_STATE_FAILED, message, now) };
      const artifact: Artifact = { artifactId: answerArtifactId, name: 'answer', description: '', parts: [textPart(outcome.text)], metadata: undefined, extensions: [] };
      return { status: taskStatus(TaskState.TASK_STATE_COMPLETED, message, now), artifact };
    }
    case 'needs-person':
      return { status: taskStatus(TaskState.TASK_STATE_INPUT_REQUIRED, { ...agentMessage(task, outcome.text), metadata: { [waitingForApproverKey]: 'approver' } }, now) };
    case 'canceled':
      return { status: taskStatus(TaskState.TASK_STATE_CANCELED, undefined, now) };
    default:
      return assertNever(outcome, 'turn outcome');
  }
}

/** True for a state no later outcome may change. Pure. */
export function isFinalState(state: TaskState | undefined): boolean {
  return state === TaskState.TASK_STATE_COMPLETED || state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_CANCELED || state === TaskState.TASK_STATE_REJECTED;
}

/** A stored task with an outcome applied (a turn that ended after its request did). Pure. */
export function applyChange(task: Task, change: { readonly status: TaskStatus; readonly artifact?: Artifact }): Task {
  const artifacts = change.artifact === undefined ? task.artifacts : [...task.artifacts.filter((artifact) => artifact.artifactId !== change.artifact?.artifactId), change.artifact];
  const history = task.status?.message === undefined ? task.history : [...task.history, task.status.message];
  return { ...task, status: change.status, artifacts, history };
}
