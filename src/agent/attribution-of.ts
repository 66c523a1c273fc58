import type { UsageAttribution, UsageOrigin } from '../model/model-port.js';
import type { TurnScope } from './turn-scope.js';

/**
 * Whose a turn's model calls are (its own, or a side call's such as the risk explainer). Scheduled turns count
 * for their job and for the person who created it; a billed client (a webhook's) stands in for both the sender
 * and the chat, whose ids the caller chooses. Pure.
 */
export function attributionOf(scope: TurnScope, origin: UsageOrigin = scope.origin): UsageAttribution {
  const base = { origin, sessionKey: scope.sessionKey, channel: scope.channel };
  if (scope.jobId !== undefined) return { ...base, chatId: scope.chatId, jobId: scope.jobId, ...(scope.billedTo === undefined ? {} : { userId: scope.billedTo }) };
  if (scope.billedTo !== undefined) return { ...base, chatId: scope.billedTo, userId: scope.billedTo };
  return { ...base, chatId: scope.chatId, userId: scope.userId };
}
