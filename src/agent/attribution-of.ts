import type { UsageAttribution, UsageOrigin } from '../model/model-port.js';
import type { TurnScope } from './turn-scope.js';

/** Whose a turn's model calls are (its own, or a side call's such as the risk explainer): scheduled turns count for their job. Pure. */
export function attributionOf(scope: TurnScope, origin: UsageOrigin = scope.origin): UsageAttribution {
  return {
    origin,
    sessionKey: scope.sessionKey,
    channel: scope.channel,
    chatId: scope.chatId,
    ...(scope.jobId === undefined ? { userId: scope.userId } : { jobId: scope.jobId }),
  };
}
