import type { SuspendedTurn } from '../approvals/suspended-turn.js';
import { toolsVisibleTo } from '../policy/plan-delegation.js';
import type { RuntimeDependencies } from './runtime-dependencies.js';
import type { TurnScope } from './turn-scope.js';

/** The scope a suspended turn resumes in: who, where and which tools, as when it stopped. Pure but for the services. */
export function scopeOfSuspendedTurn(deps: Pick<RuntimeDependencies, 'visibleToolsFor' | 'servicesFor'>, suspended: SuspendedTurn): TurnScope {
  return {
    traceId: suspended.traceId,
    sessionKey: suspended.sessionKey,
    target: suspended.target,
    origin: suspended.origin,
    unattended: suspended.unattended,
    userId: suspended.userId,
    userName: suspended.userName,
    channel: suspended.target.channel,
    chatId: suspended.target.chatId,
    isGroup: suspended.isGroup ?? false,
    ...(suspended.jobId === undefined ? {} : { jobId: suspended.jobId }),
    ...(suspended.billedTo === undefined ? {} : { billedTo: suspended.billedTo }),
    causationId: suspended.causationId ?? suspended.id,
    ...(suspended.toolScope === undefined ? {} : { toolScope: suspended.toolScope }),
    ...(suspended.replyPrefix === undefined ? {} : { replyPrefix: suspended.replyPrefix }),
    // A hook's turn keeps its own tool set after a decision, never its delivery channel's; a sub-task keeps its narrowing.
    visibleTools: toolsVisibleTo({ visibleTools: deps.visibleToolsFor(suspended.toolScope ?? suspended.target.channel), allowedTools: suspended.allowedTools }),
    ...(suspended.allowedTools === undefined ? {} : { allowedTools: suspended.allowedTools }),
    ...(suspended.delegationChain === undefined ? {} : { delegationChain: suspended.delegationChain }),
    ...(suspended.subTask === undefined ? {} : { subTask: suspended.subTask }),
    ...(suspended.allowanceLeft === undefined ? {} : { allowanceLeft: suspended.allowanceLeft }),
    // The same key on every run of this resumption, so a re-run after a crash finds the calls that ran.
    runKey: `resume:${suspended.id}`,
    callCounter: { next: 0 },
    services: deps.servicesFor({ sessionKey: suspended.sessionKey, target: suspended.target, userId: suspended.userId }),
    // The turn may have begun in another process before a restart: its side effects are looked up in the store.
    traceStartedHere: false,
  };
}
