import type { ActiveSpan, SpanAttributes } from '../telemetry/turn-tracer.js';
import type { TurnDelivery } from './runtime-dependencies.js';
import type { TurnScope } from './turn-scope.js';

/** The root span's attributes (GenAI `invoke_agent`): who, where, what started it and how trusted; never message text or secrets. */
export function turnSpanAttributes(agentName: string, scope: TurnScope): SpanAttributes {
  return {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': agentName,
    'gen_ai.conversation.id': scope.sessionKey,
    'echo.channel': scope.channel,
    'echo.chat.id': scope.chatId,
    'echo.user.id': scope.userId,
    'echo.origin': scope.origin,
    'echo.unattended': scope.unattended,
    'echo.group': scope.isGroup,
    'echo.trace_id': scope.traceId,
    'echo.job.id': scope.jobId,
    'echo.tool_scope': scope.toolScope,
    'echo.resumed': !scope.traceStartedHere,
    // A sub-task's turn: the chain it came through and the delegating call (the same the audit entries carry).
    'echo.delegation.chain': scope.delegationChain?.map((link) => link.name).join(' > '),
    'echo.delegation.parent_execution_id': scope.delegationChain?.at(-1)?.parentExecutionId,
    'echo.delegation.agent_id': scope.delegationChain?.at(-1)?.agentId,
  };
}

/** The name of a turn's root span, as the GenAI conventions spell it. */
export function turnSpanName(agentName: string): string {
  return `invoke_agent ${agentName}`;
}

/** The same dependencies, telling the turn's span how the turn ended (the status the turn-finished listeners get). */
export function reportingTo<Dependencies extends Pick<TurnDelivery, 'turnFinished'>>(deps: Dependencies, span: ActiveSpan): Dependencies {
  return {
    ...deps,
    turnFinished: (report) => {
      span.setAttributes({ 'echo.turn.status': report.status, 'echo.turn.reason': report.reason });
      if (report.status === 'failed') span.fail('turn failed');
      deps.turnFinished(report);
    },
  };
}
