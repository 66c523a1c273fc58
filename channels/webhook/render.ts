import { assertNever } from '../../src/events/assert-never.js';
import type { OutboundEvent } from '../../src/events/outbound-event.js';

/** The JSON body POSTed to a callback URL. `runId` is the inbound event the output answers, when known. */
export type CallbackPayload = { readonly type: OutboundEvent['type']; readonly runId?: string; readonly chatId: string; readonly [key: string]: unknown };

/** The largest file a callback carries inline as base64; a bigger one is named with its size only. */
export const callbackFileLimitBytes = 1024 * 1024;

/**
 * The callback body for an outbound event, or undefined when nothing is worth posting (typing, drafts). A file is
 * described (name, type, size, caption) and carries `base64` when `fileBase64` is given (the channel reads files
 * within `callbackFileLimitBytes`). Pure.
 */
export function renderCallback(event: OutboundEvent, fileBase64?: string): CallbackPayload | undefined {
  const base = { type: event.type, chatId: event.target.chatId };
  switch (event.type) {
    case 'reply':
      if (event.kind === 'progress') return undefined;
      return { ...base, runId: event.causationId, kind: event.kind, text: event.text, ...(event.failure ? { failure: event.failure.kind } : {}) };
    case 'approval-requested':
      return { ...base, runId: event.causationId, approval: event.approval };
    case 'approval-resolved':
      return { ...base, approvalId: event.approvalId, outcome: event.outcome };
    case 'question-asked':
      return { ...base, runId: event.causationId, questionId: event.questionId, text: event.text, options: event.options };
    case 'action-answered':
      return { ...base, text: event.text, isAlert: event.isAlert };
    case 'typing':
      return undefined;
    case 'file':
      return {
        ...base,
        runId: event.causationId,
        file: { name: event.fileName, mediaType: event.mediaType, sizeBytes: event.sizeBytes, ...(event.caption ? { caption: event.caption } : {}), ...(fileBase64 === undefined ? { omitted: 'over the inline limit' } : { base64: fileBase64 }) },
      };
    default:
      return assertNever(event, 'outbound event');
  }
}
