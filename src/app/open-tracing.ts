import type { Config } from '../config/config-schema.js';
import { resolveTracingTarget } from '../config/tracing-schema.js';
import type { Logger } from '../logging/create-logger.js';
import type { TurnTracer } from '../telemetry/turn-tracer.js';
import type { Lifecycle } from './create-lifecycle.js';

/**
 * Starts the OpenTelemetry exporter when `tracing` names an endpoint (from OTEL_*): the SDK is imported only then, so
 * with tracing off nothing is loaded or allocated. Buffered spans are exported when the app stops.
 */
export async function openTracing(input: { readonly config: Config; readonly logger: Logger; readonly lifecycle: Lifecycle }): Promise<TurnTracer | undefined> {
  const target = resolveTracingTarget(input.config.tracing);
  if (!target.enabled) return undefined;
  const { createOtelTracer } = await import('../tracing/create-otel-tracer.js');
  const tracer = createOtelTracer(target);
  input.lifecycle.defer('the trace exporter', () => tracer.shutdown());
  // The URL only: the headers may hold an API key.
  input.logger.info({ url: target.url, serviceName: target.serviceName }, 'traces go to an OTLP/HTTP endpoint');
  return tracer;
}
