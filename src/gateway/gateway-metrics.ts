import type { MessageBus } from '../bus/message-bus.js';
import type { Store } from '../store/key-value-namespace.js';
import type { Telemetry } from '../telemetry/telemetry.js';

type PromClient = typeof import('prom-client');

const maxToolLabels = 100;

/** prom-client's content type of the Prometheus text exposition (`Registry.PROMETHEUS_CONTENT_TYPE`), known before prom-client loads. */
export const prometheusContentType = 'text/plain; version=0.0.4; charset=utf-8';

/** One label set's model usage since start. */
type UsageSums = {
  readonly labels: { readonly model: string; readonly channel: string; readonly origin: string };
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** Undefined until a priced call: unpriced models have no cost series. */
  cost: number | undefined;
};

/** The gateway's Prometheus metrics, fed from telemetry; a registry of its own, not prom-client's global one. */
export type GatewayMetrics = {
  readonly contentType: string;
  /** The Prometheus text exposition. */
  text(): Promise<string>;
  /** Counts an answered gateway request. */
  countRequest(route: string, status: number): void;
  /** Stops listening to telemetry. */
  dispose(): void;
};

/** Creates the metrics: turns by status, tool calls and approvals by outcome, queue depth, turn latency. */
export function createGatewayMetrics(options: { readonly telemetry: Telemetry; readonly bus: Pick<MessageBus, 'stats'>; readonly store?: Pick<Store, 'health'> }): GatewayMetrics {
  // prom-client (and the OpenTelemetry API it loads) is imported with the first event to count or the first scrape,
  // not at start-up: it was a tenth of the agent's start-up CPU. Until it is in, what happens waits in `pending`
  // (only what happens while it loads, a few milliseconds).
  // Model usage is added up in plain numbers per label set and handed to prom-client only when /metrics is read:
  // its per-call label objects and hash strings, under load, were most of what a turn left for the old generation.
  const usage = new Map<string, UsageSums>();
  let instruments: Instruments | undefined;
  let loading: Promise<Instruments> | undefined;
  const pending: ((loaded: Instruments) => void)[] = [];
  const load = (): Promise<Instruments> => {
    loading ??= import('prom-client').then((promClient) => {
      const loaded = createInstruments(promClient, options, usage);
      instruments = loaded;
      for (const apply of pending.splice(0)) apply(loaded);
      return loaded;
    });
    return loading;
  };
  const record = (apply: (loaded: Instruments) => void): void => {
    if (instruments !== undefined) {
      apply(instruments);
      return;
    }
    pending.push(apply);
    void load();
  };

  // Tool names can come from the model (an unknown tool is audited under the asked name): cap the label values.
  const toolLabels = new Set<string>();
  const toolLabel = (tool: string | undefined) => {
    const name = tool ?? 'unknown';
    if (toolLabels.has(name) || toolLabels.size < maxToolLabels) {
      toolLabels.add(name);
      return name;
    }
    return 'other';
  };

  const unsubscribe = [
    options.telemetry.onTurnFinished((report) => record((loaded) => loaded.turns.inc({ status: report.status }))),
    options.telemetry.onAudit((entry) => {
      if (entry.kind === 'tool-call') {
        const tool = toolLabel(entry.tool);
        record((loaded) => loaded.toolCalls.inc({ tool, outcome: entry.outcome }));
      } else record((loaded) => loaded.approvals.inc({ kind: entry.kind, outcome: entry.outcome }));
    }),
    options.telemetry.onModelUsage((report) => {
      const key = `${report.model}\n${report.channel}\n${report.origin}`;
      let sums = usage.get(key);
      if (sums === undefined) {
        sums = { labels: { model: report.model, channel: report.channel, origin: report.origin }, calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, cost: undefined };
        usage.set(key, sums);
      }
      sums.calls += 1;
      sums.inputTokens += report.inputTokens;
      sums.cachedInputTokens += report.cachedInputTokens;
      sums.outputTokens += report.outputTokens;
      if (report.cost !== undefined) sums.cost = (sums.cost ?? 0) + report.cost;
    }),
    options.telemetry.onHookDelivery((report) => record((loaded) => loaded.hookDeliveries.inc({ hook: report.hook, outcome: report.outcome }))),
    options.telemetry.onEventHandled((event) => record((loaded) => loaded.latency.observe({ channel: event.channel, type: event.type, failed: String(event.failed) }, event.durationMs / 1000))),
  ];

  return {
    contentType: prometheusContentType,
    text: async () => (await load()).registry.metrics(),
    countRequest: (route, status) => record((loaded) => loaded.requests.inc({ route, status: String(status) })),
    dispose: () => {
      for (const stop of unsubscribe) stop();
    },
  };
}

/** The prom-client side of the metrics: its registry and the instruments events are counted on. */
type Instruments = {
  readonly registry: InstanceType<PromClient['Registry']>;
  readonly turns: InstanceType<PromClient['Counter']>;
  readonly toolCalls: InstanceType<PromClient['Counter']>;
  readonly approvals: InstanceType<PromClient['Counter']>;
  readonly requests: InstanceType<PromClient['Counter']>;
  readonly hookDeliveries: InstanceType<PromClient['Counter']>;
  readonly latency: InstanceType<PromClient['Histogram']>;
};

function createInstruments(
  promClient: PromClient,
  options: { readonly bus: Pick<MessageBus, 'stats'>; readonly store?: Pick<Store, 'health'> },
  usage: ReadonlyMap<string, UsageSums>,
): Instruments {
  const { Counter, Gauge, Histogram, Registry } = promClient;
  const registry = new Registry();
  const registers = [registry];
  const turns = new Counter({ name: 'echo_turns_total', help: 'Turns finished, by status.', labelNames: ['status'] as const, registers });
  const toolCalls = new Counter({ name: 'echo_tool_calls_total', help: 'Tool executions, by tool and outcome.', labelNames: ['tool', 'outcome'] as const, registers });
  const approvals = new Counter({ name: 'echo_approvals_total', help: 'Approval events, by kind and outcome.', labelNames: ['kind', 'outcome'] as const, registers });
  const usageLabels = ['model', 'channel', 'origin'] as const;
  const reportUsage = (counter: InstanceType<PromClient['Counter']>, amount: (sums: UsageSums) => number | undefined) => {
    counter.reset();
    for (const sums of usage.values()) {
      const value = amount(sums);
      if (value !== undefined) counter.inc(sums.labels, value);
    }
  };
  new Counter({
    name: 'echo_model_tokens_total',
    help: 'Tokens model calls used, by model, channel, origin and kind (input, cached_input, output).',
    labelNames: [...usageLabels, 'kind'] as const,
    registers,
    collect() {
      this.reset();
      for (const sums of usage.values()) {
        this.inc({ ...sums.labels, kind: 'input' }, sums.inputTokens);
        this.inc({ ...sums.labels, kind: 'cached_input' }, sums.cachedInputTokens);
        this.inc({ ...sums.labels, kind: 'output' }, sums.outputTokens);
      }
    },
  });
  new Counter({
    name: 'echo_model_cost_total',
    help: 'Cost of model calls in the currency of the price table (priced models only), by model, channel and origin.',
    labelNames: usageLabels,
    registers,
    collect() {
      reportUsage(this, (sums) => sums.cost);
    },
  });
  new Counter({
    name: 'echo_model_calls_total',
    help: 'Answered model calls, by model, channel and origin.',
    labelNames: usageLabels,
    registers,
    collect() {
      reportUsage(this, (sums) => sums.calls);
    },
  });
  const requests = new Counter({ name: 'echo_gateway_requests_total', help: 'HTTP gateway requests, by route and status.', labelNames: ['route', 'status'] as const, registers });
  // Hook names come from config only (a route exists per configured hook): the label set stays bounded.
  const hookDeliveries = new Counter({ name: 'echo_hook_deliveries_total', help: 'Requests to named hooks, by hook and outcome.', labelNames: ['hook', 'outcome'] as const, registers });
  const latency = new Histogram({
    name: 'echo_turn_duration_seconds',
    help: 'Time to handle one inbound event (a turn, a decision, a resumption), by channel and event type.',
    labelNames: ['channel', 'type', 'failed'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers,
  });
  new Gauge({
    name: 'echo_queue_depth',
    help: 'Inbound events waiting in the bus.',
    registers,
    collect() {
      this.set(options.bus.stats().queued);
    },
  });
  new Gauge({
    name: 'echo_store_errors',
    help: 'Store calls that failed or timed out since start.',
    registers,
    collect() {
      this.set(options.store?.health().errors ?? 0);
    },
  });
  new Gauge({
    name: 'echo_store_up',
    help: '1 while the store answers, 0 after a failed or timed-out call until the next success.',
    registers,
    collect() {
      this.set(options.store?.health().state === 'degraded' ? 0 : 1);
    },
  });
  new Gauge({
    name: 'echo_turns_active',
    help: 'Inbound events being handled right now.',
    registers,
    collect() {
      this.set(options.bus.stats().active);
    },
  });

  return { registry, turns, toolCalls, approvals, requests, hookDeliveries, latency };
}
