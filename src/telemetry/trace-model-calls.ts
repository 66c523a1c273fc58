import type { ModelPort } from '../model/model-port.js';
import type { TurnTracer } from './turn-tracer.js';

/** Wraps a model so each call is a `chat <model>` span with the GenAI attributes (model, provider, tokens); never the prompt. */
export function traceModelCalls(model: ModelPort, tracer: TurnTracer, provider: string): ModelPort {
  return {
    ...model,
    name: model.name,
    complete: (request) =>
      tracer.inSpan(
        {
          name: `chat ${model.name}`,
          calls: 'remote',
          attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': model.name, 'echo.usage.origin': request.attribution?.origin },
        },
        async (span) => {
          const result = await model.complete(request);
          if (!result.ok) {
            span.setAttributes({ 'error.type': result.failure.kind });
            span.fail(result.failure.kind);
            return result;
          }
          const { answer } = result;
          span.setAttributes({
            'gen_ai.response.model': answer.model ?? model.name,
            'gen_ai.response.finish_reasons': answer.finishReason,
            'gen_ai.usage.input_tokens': answer.usage === undefined ? undefined : answer.usage.inputTokens + answer.usage.cachedInputTokens,
            'gen_ai.usage.output_tokens': answer.usage?.outputTokens,
            'gen_ai.usage.cache_read.input_tokens': answer.usage?.cachedInputTokens,
          });
          return result;
        },
      ),
  };
}
