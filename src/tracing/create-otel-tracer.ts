import { AsyncLocalStorage } from 'node:async_hooks';
import { type Attributes, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { SpanAttributes, SpanStart, TurnTracer } from '../telemetry/turn-tracer.js';

/** Where the spans go (from config's `tracing` section, see resolveTracingTarget). */
export type OtelTracerOptions = { readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly serviceName: string };

const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The TurnTracer on the OpenTelemetry SDK, exporting over OTLP/HTTP (JSON). It keeps its own active span in an
 * AsyncLocalStorage instead of registering globals, so two apps in one process (tests) never share a provider.
 */
export function createOtelTracer(options: OtelTracerOptions): TurnTracer {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.url, headers: { ...options.headers } }), { scheduledDelayMillis: 1000 })],
  });
  const tracer = provider.getTracer('echo-agent');
  const active = new AsyncLocalStorage<Span>();

  const parentContext = (parent: string | undefined) => {
    const stored = parent === undefined ? undefined : traceparentPattern.exec(parent);
    if (stored?.[1] !== undefined && stored[2] !== undefined) {
      return trace.setSpanContext(ROOT_CONTEXT, { traceId: stored[1], spanId: stored[2], traceFlags: Number.parseInt(stored[3] ?? '01', 16), isRemote: true });
    }
    const current = active.getStore();
    return current === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, current);
  };
  const start = (span: SpanStart) =>
    tracer.startSpan(
      span.name,
      { kind: span.calls === 'remote' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes: definedOnly(span.attributes), ...(span.startTime === undefined ? {} : { startTime: span.startTime }) },
      parentContext(span.parent),
    );

  return {
    async inSpan(spanStart, work) {
      const span = start(spanStart);
      try {
        return await active.run(span, () =>
          work({
            setAttributes: (attributes) => span.setAttributes(definedOnly(attributes)),
            fail: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message }),
          }),
        );
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
        throw error;
      } finally {
        span.end();
      }
    },
    recordSpan(finished) {
      const span = start(finished);
      if (finished.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: finished.error });
      span.end(finished.endTime);
    },
    traceparent() {
      const context = active.getStore()?.spanContext();
      if (context === undefined) return undefined;
      return `00-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, '0')}`;
    },
    shutdown: () => provider.shutdown(),
  };
}

function definedOnly(attributes: SpanAttributes): Attributes {
  const defined: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) defined[name] = value;
  return defined;
}
