import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolServices } from '../../src/registry/tool-context.js';
import type { ExecutionRequest, ToolRegistry } from '../../src/registry/tool-registry.js';
import { median } from './bench-statistics.js';
import { createInstantModel } from './instant-model.js';
import { startBenchApp } from './start-bench-app.js';

/** How the registry benchmark runs. */
export type RegistryBenchOptions = {
  readonly runs: number;
  /** How long each run calls, one call after another. */
  readonly durationMs: number;
  readonly warmupIterations: number;
};

/** Microseconds per `ToolRegistry.execute` call of a tool that does nothing, medians over the runs. */
export type RegistryFigures = {
  /** A side-effect tool in a fresh turn, as most calls are: validation, policy, approval gate, replay guard (memory lookup, record to SQLite), audit. */
  readonly microsPerCall: number;
  /** The same in a turn resumed from the store: the replay guard also looks the key up in SQLite. */
  readonly microsPerCallResumedTurn: number;
  /** The same without side effects: no replay guard, so no store round trip. */
  readonly microsPerCallWithoutReplayGuard: number;
};

const noopInput = z.object({ text: z.string().min(1).max(200), count: z.number().int().min(0).optional() });

/** A tool whose own work is nothing, so only the registry's cost is measured. */
const noopTool = defineTool({
  name: 'bench_noop',
  description: 'Does nothing (benchmark).',
  input: noopInput,
  risk: 'write',
  approval: 'never',
  sideEffects: true,
  execute: async () => ({ ok: true, output: 'done' }),
});

const pureNoopTool = defineTool({ ...noopTool, name: 'bench_noop_pure', sideEffects: false });

// The no-op tools never touch their services.
const unusedServices = new Proxy({} as ToolServices, {
  get() {
    throw new Error('the benchmark tool does not use services');
  },
});

/** Calls a no-op tool through the real registry (built by createApp: audit to file, replay guard over SQLite, approval gate) many times, one after another. */
export async function runRegistryBench(options: RegistryBenchOptions): Promise<RegistryFigures> {
  const bench = await startBenchApp({ model: createInstantModel(), extraTools: [noopTool, pureNoopTool] });
  try {
    const registry = bench.app.registry;
    const withGuard: number[] = [];
    const resumed: number[] = [];
    const withoutGuard: number[] = [];
    await timeCalls(registry, 'bench_noop', { maxCalls: options.warmupIterations, durationMs: Number.POSITIVE_INFINITY, label: 'warmup' });
    await timeCalls(registry, 'bench_noop_pure', { maxCalls: options.warmupIterations, durationMs: Number.POSITIVE_INFINITY, label: 'warmup' });
    for (let run = 0; run < options.runs; run += 1) {
      withGuard.push(await timeCalls(registry, 'bench_noop', { maxCalls: Number.POSITIVE_INFINITY, durationMs: options.durationMs, label: `run${run}` }));
      resumed.push(await timeCalls(registry, 'bench_noop', { maxCalls: Number.POSITIVE_INFINITY, durationMs: options.durationMs, label: `resumed${run}`, resumedTurn: true }));
      withoutGuard.push(await timeCalls(registry, 'bench_noop_pure', { maxCalls: Number.POSITIVE_INFINITY, durationMs: options.durationMs, label: `run${run}` }));
    }
    return { microsPerCall: median(withGuard), microsPerCallResumedTurn: median(resumed), microsPerCallWithoutReplayGuard: median(withoutGuard) };
  } finally {
    await bench.stop();
  }
}

/** Microseconds per call over sequential calls (until `durationMs` or `maxCalls`); every call has its own id, so none is a replay. */
async function timeCalls(
  registry: ToolRegistry,
  toolName: string,
  options: { readonly maxCalls: number; readonly durationMs: number; readonly label: string; readonly resumedTurn?: boolean },
): Promise<number> {
  const { label } = options;
  const target = { channel: 'telegram', chatId: '4242' };
  const visibleTools = new Set([toolName]);
  const request = (index: number): ExecutionRequest => ({
    call: { id: `${label}-${index}`, name: toolName, argumentsText: `{"text":"item ${index}","count":${index}}` },
    traceId: `trace-${label}-${index}`,
    sessionKey: 'telegram:4242',
    userId: '4242',
    channel: 'telegram',
    chatId: '4242',
    target,
    origin: 'user',
    unattended: false,
    visibleTools,
    approvedActions: [],
    services: unusedServices,
    // The runtime sets this for every turn that began in this process; resumed turns check the store too.
    traceStartedHere: options.resumedTurn !== true,
  });
  const started = performance.now();
  let calls = 0;
  // The clock is read every 50 calls only, so reading it costs nothing per call.
  while (calls < options.maxCalls && (calls % 50 !== 0 || performance.now() - started < options.durationMs)) {
    const outcome = await registry.execute(request(calls));
    if (outcome.kind !== 'result' || !outcome.result.ok) throw new Error(`the no-op call failed: ${JSON.stringify(outcome)}`);
    calls += 1;
  }
  return ((performance.now() - started) * 1000) / calls;
}
