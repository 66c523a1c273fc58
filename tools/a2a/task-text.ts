import { type Message, type Part, type Task, TaskState } from '@a2a-js/sdk';

/** The text of a message's parts: text parts as they are, data parts as JSON, files named. Pure. */
export function textOfParts(parts: readonly Part[]): string {
  return parts
    .map((part) => {
      const content = part.content;
      if (content === undefined) return '';
      switch (content.$case) {
        case 'text':
          return content.value;
        case 'data':
          return JSON.stringify(content.value);
        case 'url':
          return `[file ${part.filename || content.value}]`;
        case 'raw':
          return `[file ${part.filename || 'attachment'} (${part.mediaType || 'bytes'})]`;
        default:
          return '';
      }
    })
    .filter((text) => text !== '')
    .join('\n');
}

/** What a finished task says: its artifacts' text, else its status message's. Pure. */
export function textOfTask(task: Task): string {
  const artifacts = task.artifacts.map((artifact) => textOfParts(artifact.parts)).filter((text) => text !== '');
  if (artifacts.length > 0) return artifacts.join('\n\n');
  return textOfMessage(task.status?.message);
}

/** A message's text, or '' for none. Pure. */
export function textOfMessage(message: Message | undefined): string {
  return message === undefined ? '' : textOfParts(message.parts);
}

/**
 * Metadata an echo-agent peer puts on the status message of a task that waits for its own approvers, not for us: the
 * tool keeps waiting instead of asking the person. Written by channels/a2a-server/task-events.ts.
 */
const waitingForApproverKey = 'echo-agent/waiting-for';

/** How a peer's task stands, as the tool reads it. */
export type PeerTaskStanding = 'finished' | 'needs-input' | 'peer-approval' | 'failed' | 'running';

/** Sorts a task into what the tool does next. Pure. */
export function standingOf(task: Task): PeerTaskStanding {
  switch (task.status?.state) {
    case TaskState.TASK_STATE_COMPLETED:
      return 'finished';
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return task.status.message?.metadata?.[waitingForApproverKey] === 'approver' ? 'peer-approval' : 'needs-input';
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return 'needs-input';
    case TaskState.TASK_STATE_FAILED:
    case TaskState.TASK_STATE_CANCELED:
    case TaskState.TASK_STATE_REJECTED:
      return 'failed';
    default:
      return 'running';
  }
}
