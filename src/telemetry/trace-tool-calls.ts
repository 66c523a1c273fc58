import type { ToolRegistry } from '../registry/tool-registry.js';
import type { TurnTracer } from './turn-tracer.js';

/** Wraps the registry so each governed call is an `execute_tool <name>` span with its outcome; the arguments are never recorded. */
export function traceToolCalls(registry: ToolRegistry, tracer: TurnTracer): ToolRegistry {
  return {
    names: () => registry.names(),
    find: (name) => registry.find(name),
    definitions: (visibleTools) => registry.definitions(visibleTools),
    onChange: (listener) => registry.onChange(listener),
    flush: () => registry.flush(),
    execute: (request) =>
      tracer.inSpan(
        {
          name: `execute_tool ${request.call.name}`,
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': request.call.name,
            'gen_ai.tool.call.id': request.call.id,
            // A sub-task's call: the chain it came through and the delegating call, as in its audit entry.
            'echo.delegation.chain': request.delegationChain?.map((link) => link.name).join(' > '),
            'echo.delegation.parent_execution_id': request.delegationChain?.at(-1)?.parentExecutionId,
            'echo.delegation.agent_id': request.delegationChain?.at(-1)?.agentId,
          },
        },
        async (span) => {
          const outcome = await registry.execute(request);
          switch (outcome.kind) {
            case 'result':
              span.setAttributes({ 'echo.tool.outcome': outcome.result.ok ? 'ok' : (outcome.result.errorKind ?? 'error') });
              if (!outcome.result.ok) span.fail(outcome.result.errorKind ?? 'error');
              return outcome;
            case 'approval-required':
              span.setAttributes({ 'echo.tool.outcome': 'approval-required', 'echo.tool.risk': outcome.tool.risk });
              return outcome;
            default: {
              const unexpected: never = outcome;
              return unexpected;
            }
          }
        },
      ),
  };
}
