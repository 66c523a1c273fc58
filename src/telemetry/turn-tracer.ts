/** Attribute values a span carries; undefined ones are left out. Never secrets: see docs/architecture.md, "Traces". */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** How a span starts: its name, attributes, and optionally the trace it continues and when it began. */
export type SpanStart = {
  readonly name: string;
  readonly attributes: SpanAttributes;
  /** A W3C traceparent stored earlier (a suspended turn's): the span is its child, in the same trace. */
  readonly parent?: string;
  /** When the span began, when earlier than now (an approval wait starts at the card). */
  readonly startTime?: Date;
  /** `remote`: the span waits on a remote service (a model endpoint: span kind CLIENT); in-process otherwise. */
  readonly calls?: 'remote';
};

/** The span a piece of work runs in: it may add attributes or mark itself failed before it ends. */
export interface ActiveSpan {
  setAttributes(attributes: SpanAttributes): void;
  fail(message: string): void;
}

/**
 * Traces of turns, model calls, tool calls and approval waits (OpenTelemetry GenAI conventions), without the SDK:
 * the SDK lives behind this interface in src/tracing/, loaded only when an OTEL_* variable configures it.
 */
export interface TurnTracer {
  /** Runs `work` inside a new span (a child of the span active now, or of `parent`); spans started inside nest under it. */
  inSpan<T>(start: SpanStart, work: (span: ActiveSpan) => Promise<T>): Promise<T>;
  /** Records a span that already ended (an approval wait measured from the stored card time to the decision). */
  recordSpan(span: SpanStart & { readonly endTime: Date; readonly error?: string }): void;
  /** The traceparent of the span active now, stored with a suspended turn so its resumption continues the trace. */
  traceparent(): string | undefined;
  /** Exports what is buffered and stops the exporter. */
  shutdown(): Promise<void>;
}
