import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ApprovalHook } from '../../../src/registry/approval-hook.js';
import { hashToolCall } from '../../../src/registry/canonical-json.js';
import { defineTool, type ToolDefinition } from '../../../src/registry/define-tool.js';
import type { ToolContext } from '../../../src/registry/tool-context.js';
import type { ToolOutcome } from '../../../src/registry/tool-outcome.js';
import type { ExecuteOutcome } from '../../../src/registry/tool-registry.js';
import { callOf, createRegistryHarness, createTemporaryFolder, fixedHook, type RegistryHarness, requestFor } from './registry-fixtures.js';

/** A tool that records every run and answers with `answer` (default: ok). */
function recordingTool(name: string, overrides: Partial<ToolDefinition> & { answer?: (attempt: number, input: unknown) => ToolOutcome } = {}) {
  const runs: { input: unknown; context: ToolContext }[] = [];
  const { answer, ...rest } = overrides;
  const base = defineTool({
    name,
    description: `The ${name} tool.`,
    input: z.object({ action: z.enum(['remember', 'recall', 'forget']), key: z.string().optional() }),
    risk: 'write',
    execute: async (input, context) => {
      runs.push({ input, context });
      return answer ? answer(runs.length, input) : { ok: true, output: `${name}: ${input.action}` };
    },
  });
  const tool = { ...base, ...rest } as ToolDefinition;
  return { tool, runs };
}

function resultOf(outcome: ExecuteOutcome) {
  if (outcome.kind !== 'result') throw new Error(`expected a result, got ${outcome.kind}`);
  return outcome.result;
}

let harness: RegistryHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function harnessWith(
  tools: readonly ToolDefinition[],
  options: { approvalHook?: ApprovalHook; network?: 'public-only' | 'allow' | 'deny'; capabilityRules?: Record<string, 'allow' | 'deny' | 'ask'>; marks?: 'file' | 'store' } = {},
) {
  harness = await createRegistryHarness({ tools, ...options });
  return harness;
}

describe('registry.execute: the order of checks', () => {
  it('denies an unknown tool without running anything', async () => {
    const memory = recordingTool('memory');
    const { registry } = await harnessWith([memory.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('nope', { action: 'recall' }), ['memory', 'nope'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'denied', error: 'Unknown tool "nope". Use only the tools you were given.' });
    expect(memory.runs).toHaveLength(0);
  });

  it('denies a registered tool outside the visible set (defence in depth), before validating or asking', async () => {
    const exec = recordingTool('exec', { risk: 'exec' });
    const hook = fixedHook({ decision: 'allow', source: 'test' });
    const { registry } = await harnessWith([exec.tool], { approvalHook: hook });
    const result = resultOf(await registry.execute(requestFor(callOf('exec', 'not json at all'), ['memory'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'denied', error: 'The tool "exec" is not available in this conversation.' });
    expect(exec.runs).toHaveLength(0);
    expect(hook.asked).toHaveLength(0);
  });

  it('denies a visible tool outside the scoped allow-list of the context', async () => {
    const memory = recordingTool('memory');
    const { registry } = await harnessWith([memory.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('memory', { action: 'recall' }), ['memory'], { allowedTools: ['todo'] })));
    expect(result).toMatchObject({ ok: false, errorKind: 'denied', error: 'The tool "memory" is not allowed in this context.' });
    expect(memory.runs).toHaveLength(0);
  });

  it('answers arguments that are not JSON with a validation error', async () => {
    const memory = recordingTool('memory');
    const { registry } = await harnessWith([memory.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('memory', '{"action": '), ['memory'])));
    expect(result).toEqual({
      ok: false,
      output: 'Invalid parameters: the arguments are not valid JSON.',
      error: 'Invalid parameters: the arguments are not valid JSON.',
      errorKind: 'validation',
      metadata: {},
    });
    expect(memory.runs).toHaveLength(0);
  });

  it('words a zod failure as one line the model can act on', async () => {
    const memory = recordingTool('memory');
    const hook = fixedHook({ decision: 'allow', source: 'test' });
    const { registry } = await harnessWith([memory.tool], { approvalHook: hook });
    const result = resultOf(await registry.execute(requestFor(callOf('memory', { action: 'remind' }), ['memory'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'validation', output: 'Invalid parameters: action: expected one of remember|recall|forget' });
    expect(memory.runs).toHaveLength(0);
    expect(hook.asked).toHaveLength(0);
  });

  it('lists every failing field, separated by semicolons', async () => {
    const memory = recordingTool('memory');
    const { registry } = await harnessWith([memory.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('memory', { action: 'remind', key: 5 }), ['memory'])));
    expect(result.output).toBe('Invalid parameters: action: expected one of remember|recall|forget; key: Invalid input: expected string, received number');
  });

  it('treats empty arguments as an empty object', async () => {
    const ping = recordingTool('ping', { input: z.object({}) });
    const { registry } = await harnessWith([ping.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('ping', '  '), ['ping'])));
    expect(result.ok).toBe(true);
    expect(ping.runs).toHaveLength(1);
  });

  it('runs the tool with the validated (parsed) input and a full context', async () => {
    const memory = recordingTool('memory', { input: z.object({ action: z.enum(['remember', 'recall', 'forget']), key: z.string().trim() }) });
    const { registry } = await harnessWith([memory.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('memory', { action: 'recall', key: '  city  ', extra: 'dropped' }), ['memory'])));
    expect(result).toEqual({ ok: true, output: 'memory: recall', metadata: {} });
    expect(memory.runs[0]?.input).toEqual({ action: 'recall', key: 'city' });
    expect(memory.runs[0]?.context).toMatchObject({ traceId: 'trace-1', sessionKey: 'telegram:1001', userId: '42', channel: 'telegram', chatId: '1001', attempt: 1 });
    expect(memory.runs[0]?.context.signal.aborted).toBe(false);
  });

  it('gives a tool its own credentials only', async () => {
    const memory = recordingTool('memory');
    harness = await createRegistryHarness({ tools: [memory.tool], credentials: { memory: { apiKey: 'mine' }, other: { apiKey: 'not-mine' } } });
    await harness.registry.execute(requestFor(callOf('memory', { action: 'recall' }), ['memory']));
    expect(memory.runs[0]?.context.credentials).toEqual({ apiKey: 'mine' });
  });
});

describe('registry.execute: policy', () => {
  it('denies a network tool when the network policy is deny', async () => {
    const fetcher = recordingTool('web_fetch', { risk: 'read_only', capabilities: ['network.outbound'] });
    const { registry } = await harnessWith([fetcher.tool], { network: 'deny' });
    const result = resultOf(await registry.execute(requestFor(callOf('web_fetch', { action: 'recall' }), ['web_fetch'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'denied', error: 'Network access is turned off by policy, so "web_fetch" cannot run.' });
    expect(fetcher.runs).toHaveLength(0);
  });

  it('passes a capability rule that asks on to the gate', async () => {
    const fetcher = recordingTool('web_fetch', { risk: 'read_only', capabilities: ['network.outbound'] });
    const hook = fixedHook({ decision: 'ask', reason: 'policy asked' });
    const { registry } = await harnessWith([fetcher.tool], { approvalHook: hook, capabilityRules: { 'network.outbound': 'ask' } });
    const outcome = await registry.execute(requestFor(callOf('web_fetch', { action: 'recall' }), ['web_fetch']));
    expect(outcome.kind).toBe('approval-required');
    expect(hook.asked[0]?.policyAsks).toBe('The capability "network.outbound" needs approval by policy.');
  });

  it('denies a call the policy wants to ask about when no gate is configured', async () => {
    const fetcher = recordingTool('web_fetch', { risk: 'read_only', capabilities: ['network.outbound'] });
    const { registry } = await harnessWith([fetcher.tool], { capabilityRules: { 'network.outbound': 'ask' } });
    const result = resultOf(await registry.execute(requestFor(callOf('web_fetch', { action: 'recall' }), ['web_fetch'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'denied', error: 'The capability "network.outbound" needs approval by policy. No approval gate is configured.' });
    expect(fetcher.runs).toHaveLength(0);
  });
});

describe('registry.execute: the approval hook', () => {
  it('asks the hook with the validated input and the hash of the exact call', async () => {
    const memory = recordingTool('memory', { risk: 'exec', approval: 'always' });
    const hook = fixedHook({ decision: 'allow', source: 'grant:session' });
    const { registry } = await harnessWith([memory.tool], { approvalHook: hook });
    await registry.execute(requestFor(callOf('memory', { key: 'k', action: 'forget' }), ['memory'], { approvedActions: ['abc'], origin: 'schedule', unattended: true }));
    expect(hook.asked).toEqual([
      {
        toolName: 'memory',
        risk: 'exec',
        approval: 'always',
        input: { action: 'forget', key: 'k' },
        argumentsHash: hashToolCall('memory', { action: 'forget', key: 'k' }),
        sessionKey: 'telegram:1001',
        userId: '42',
        channel: 'telegram',
        origin: 'schedule',
        unattended: true,
        approvedActions: ['abc'],
        policyAsks: undefined,
      },
    ]);
  });

  it('defaults the approval mode to by-risk', async () => {
    const memory = recordingTool('memory');
    const hook = fixedHook({ decision: 'allow', source: 'policy' });
    const { registry } = await harnessWith([memory.tool], { approvalHook: hook });
    await registry.execute(requestFor(callOf('memory', { action: 'recall' }), ['memory']));
    expect(hook.asked[0]?.approval).toBe('by-risk');
  });

  it('refuses a call the hook denies, and nothing runs', async () => {
    const memory = recordingTool('memory');
    const { registry } = await harnessWith([memory.tool], { approvalHook: fixedHook({ decision: 'deny', reason: 'Refused and cannot be approved: rm -rf /' }) });
    const result = resultOf(await registry.execute(requestFor(callOf('memory', { action: 'forget' }), ['memory'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'denied', error: 'Refused and cannot be approved: rm -rf /' });
    expect(memory.runs).toHaveLength(0);
  });

  it('returns approval-required when the hook asks, and nothing runs', async () => {
    const memory = recordingTool('memory', { risk: 'exec' });
    const { registry } = await harnessWith([memory.tool], { approvalHook: fixedHook({ decision: 'ask', reason: 'its risk is exec' }) });
    const outcome = await registry.execute(requestFor(callOf('memory', { action: 'forget', key: 'k' }), ['memory']));
    expect(outcome).toEqual({
      kind: 'approval-required',
      toolName: 'memory',
      tool: memory.tool,
      input: { action: 'forget', key: 'k' },
      argumentsHash: hashToolCall('memory', { action: 'forget', key: 'k' }),
      reason: 'its risk is exec',
    });
    expect(memory.runs).toHaveLength(0);
  });

  it('runs a call the hook allows and records where the clearance came from', async () => {
    const memory = recordingTool('memory');
    const h = await harnessWith([memory.tool], { approvalHook: fixedHook({ decision: 'allow', source: 'grant:always' }) });
    const result = resultOf(await h.registry.execute(requestFor(callOf('memory', { action: 'remember' }), ['memory'])));
    expect(result.ok).toBe(true);
    expect(memory.runs).toHaveLength(1);
    expect((await h.audit.recent(1))[0]).toMatchObject({ kind: 'tool-call', tool: 'memory', outcome: 'ok', approvalSource: 'grant:always', attempts: 1 });
  });
});

describe('registry.execute: the replay guard', () => {
  it('returns the first result for the same idempotency key without running twice', async () => {
    const message = recordingTool('message', { sideEffects: true });
    const { registry } = await harnessWith([message.tool]);
    const call = callOf('message', { action: 'remember' }, 'call-same');
    const first = resultOf(await registry.execute(requestFor(call, ['message'])));
    const second = resultOf(await registry.execute(requestFor(call, ['message'])));
    expect(message.runs).toHaveLength(1);
    expect(first).toEqual({ ok: true, output: 'message: remember', metadata: {} });
    expect(second).toEqual({ ok: true, output: 'message: remember', metadata: { replayed: true } });
  });

  it('runs a deliberate identical call with another call id', async () => {
    const message = recordingTool('message', { sideEffects: true });
    const { registry } = await harnessWith([message.tool]);
    await registry.execute(requestFor(callOf('message', { action: 'remember' }, 'call-a'), ['message']));
    const again = resultOf(await registry.execute(requestFor(callOf('message', { action: 'remember' }, 'call-b'), ['message'])));
    expect(message.runs).toHaveLength(2);
    expect(again.metadata.replayed).toBeUndefined();
  });

  it('runs the same call id again in another trace', async () => {
    const message = recordingTool('message', { sideEffects: true });
    const { registry } = await harnessWith([message.tool]);
    await registry.execute(requestFor(callOf('message', { action: 'remember' }, 'call-a'), ['message']));
    await registry.execute(requestFor(callOf('message', { action: 'remember' }, 'call-a'), ['message'], { traceId: 'trace-2' }));
    expect(message.runs).toHaveLength(2);
  });

  it('gives the tool a stable key, and answers a replay of a failed side effect with that failure instead of trying again', async () => {
    const message = recordingTool('message', { sideEffects: true, answer: () => ({ ok: false, error: 'no' }) });
    const { registry } = await harnessWith([message.tool]);
    const call = callOf('message', { action: 'remember' }, 'call-k');
    await registry.execute(requestFor(call, ['message']));
    const replayed = resultOf(await registry.execute(requestFor(call, ['message'])));
    // The same call (same run, same position) is the same action: it may have done part of its work before failing.
    expect(message.runs).toHaveLength(1);
    expect(message.runs[0]?.context.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(replayed).toMatchObject({ ok: false, output: 'no', metadata: { replayed: true } });
  });

  it('keys a call by its run and position, not the model\'s call id, which changes on every model call', async () => {
    const message = recordingTool('message', { sideEffects: true });
    const { registry } = await harnessWith([message.tool]);
    await registry.execute({ ...requestFor(callOf('message', { action: 'remember' }, 'call-first-model-call'), ['message']), callKey: 'event-1#0' });
    const again = resultOf(await registry.execute({ ...requestFor(callOf('message', { action: 'remember' }, 'call-after-rerun'), ['message']), callKey: 'event-1#0' }));
    await registry.execute({ ...requestFor(callOf('message', { action: 'remember' }, 'call-after-rerun-2'), ['message']), callKey: 'event-1#1' });
    expect(again).toMatchObject({ ok: true, metadata: { replayed: true } });
    // The same arguments at another position are another call: it runs.
    expect(message.runs).toHaveLength(2);
  });

  it.each(['file', 'store'] as const)('says the outcome is unknown, and does not run again, when a call started in a process that died (marks in the %s)', async (marks) => {
    let runs = 0;
    // A call that never finishes: the process "dies" while it runs, before any result is recorded.
    const hanging = defineTool({
      name: 'deploy',
      description: 'Deploys.',
      input: z.object({ target: z.string() }),
      risk: 'write',
      approval: 'never',
      sideEffects: true,
      timeoutMs: 60_000,
      execute: () => {
        runs += 1;
        return new Promise<never>(() => undefined);
      },
    });
    const h = await harnessWith([hanging], { marks });
    const request = { ...requestFor(callOf('deploy', { target: 'prod' }, 'call-died'), ['deploy']), callKey: 'event-2#0' };
    void h.registry.execute(request);
    await vi.waitFor(() => expect(runs).toBe(1));
    const restarted = await h.reopen();
    const result = resultOf(await restarted.execute({ ...requestFor(callOf('deploy', { target: 'prod' }, 'call-new-id'), ['deploy']), callKey: 'event-2#0', traceStartedHere: false }));
    expect(runs).toBe(1);
    expect(result).toMatchObject({ ok: false, errorKind: 'internal' });
    expect(result.output).toContain('outcome is unknown');
  });

  it('does not guard tools without side effects', async () => {
    const reader = recordingTool('reader', { risk: 'read_only' });
    const { registry } = await harnessWith([reader.tool]);
    const call = callOf('reader', { action: 'recall' }, 'call-r');
    await registry.execute(requestFor(call, ['reader']));
    await registry.execute(requestFor(call, ['reader']));
    expect(reader.runs).toHaveLength(2);
  });

  it('remembers across a new registry over the same SQLite store (a restart)', async () => {
    const message = recordingTool('message', { sideEffects: true });
    const h = await harnessWith([message.tool]);
    const call = callOf('message', { action: 'remember' }, 'call-persisted');
    await h.registry.execute(requestFor(call, ['message']));
    const restarted = await h.reopen();
    const replayed = resultOf(await restarted.execute(requestFor(call, ['message'])));
    expect(message.runs).toHaveLength(1);
    expect(replayed).toMatchObject({ ok: true, output: 'message: remember', metadata: { replayed: true } });
  });

  it('records a replay in the audit log as cleared by the replay guard', async () => {
    const message = recordingTool('message', { sideEffects: true });
    const h = await harnessWith([message.tool]);
    const call = callOf('message', { action: 'remember' }, 'call-audit');
    await h.registry.execute(requestFor(call, ['message']));
    await h.registry.execute(requestFor(call, ['message']));
    const entries = await h.audit.recent(2);
    expect(entries.map((entry) => entry.approvalSource)).toEqual(['policy', 'replay-guard']);
    expect(entries[1]?.attempts).toBe(0);
  });
});

describe('registry.execute: timeouts, retries and failures', () => {
  it('cuts off a tool that ignores its signal; execute resolves with a timeout', async () => {
    let started = false;
    const stuck = recordingTool('stuck', {
      timeoutMs: 20,
      execute: () => {
        started = true;
        return new Promise<ToolOutcome>(() => undefined);
      },
    });
    const { registry } = await harnessWith([stuck.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('stuck', { action: 'recall' }), ['stuck'])));
    expect(started).toBe(true);
    expect(result).toMatchObject({ ok: false, errorKind: 'timeout', error: 'The tool "stuck" timed out after 20 ms.' });
  });

  it('aborts the signal given to the tool at the deadline', async () => {
    let seen: AbortSignal | undefined;
    const polite = recordingTool('polite', {
      timeoutMs: 20,
      execute: (_input, context) => {
        seen = context.signal;
        return new Promise<ToolOutcome>((resolve) => context.signal.addEventListener('abort', () => resolve({ ok: false, error: 'stopped' })));
      },
    });
    const { registry } = await harnessWith([polite.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('polite', { action: 'recall' }), ['polite'])));
    expect(result.errorKind).toBe('timeout');
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(Error);
    expect((seen?.reason as Error | undefined)?.message).toBe('timed out after 20 ms');
  });

  it('retries infrastructure failures up to the limit, counting attempts', async () => {
    const flaky = recordingTool('flaky', {
      risk: 'read_only',
      retries: 2,
      answer: (attempt) => (attempt < 3 ? { ok: false, kind: 'infrastructure', error: `down ${attempt}` } : { ok: true, output: 'finally' }),
    });
    const h = await harnessWith([flaky.tool]);
    const result = resultOf(await h.registry.execute(requestFor(callOf('flaky', { action: 'recall' }), ['flaky'])));
    expect(result).toMatchObject({ ok: true, output: 'finally' });
    expect(flaky.runs.map((run) => run.context.attempt)).toEqual([1, 2, 3]);
    expect((await h.audit.recent(1))[0]).toMatchObject({ outcome: 'ok', attempts: 3 });
  });

  it('stops retrying when the retries are used up, and reports the last failure', async () => {
    const down = recordingTool('down', { risk: 'read_only', retries: 1, answer: (attempt) => ({ ok: false, kind: 'infrastructure', error: `down ${attempt}` }) });
    const { registry } = await harnessWith([down.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('down', { action: 'recall' }), ['down'])));
    expect(down.runs).toHaveLength(2);
    expect(result).toMatchObject({ ok: false, error: 'down 2', errorKind: 'internal' });
  });

  it('never retries a business failure', async () => {
    const picky = recordingTool('picky', { retries: 3, answer: () => ({ ok: false, kind: 'business', error: 'No such key.' }) });
    const { registry } = await harnessWith([picky.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('picky', { action: 'forget' }), ['picky'])));
    expect(picky.runs).toHaveLength(1);
    expect(result).toEqual({ ok: false, output: 'No such key.', error: 'No such key.', errorKind: 'business', metadata: {} });
  });

  it('treats a failure without a kind as business: not retried', async () => {
    const picky = recordingTool('picky', { retries: 3, answer: () => ({ ok: false, error: 'No.' }) });
    const { registry } = await harnessWith([picky.tool]);
    await registry.execute(requestFor(callOf('picky', { action: 'forget' }), ['picky']));
    expect(picky.runs).toHaveLength(1);
  });

  it('never retries a side-effect tool after a timeout (it may have acted)', async () => {
    let runs = 0;
    const sender = recordingTool('sender', {
      sideEffects: true,
      retries: 3,
      timeoutMs: 10,
      execute: async () => {
        runs += 1;
        return new Promise<ToolOutcome>(() => undefined);
      },
    });
    const { registry } = await harnessWith([sender.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('sender', { action: 'remember' }), ['sender'])));
    expect(result.errorKind).toBe('timeout');
    expect(runs).toBe(1);
  });

  it('retries a timeout of a tool without side effects', async () => {
    let runs = 0;
    const slow = recordingTool('slow', {
      risk: 'read_only',
      retries: 1,
      timeoutMs: 10,
      execute: async () => {
        runs += 1;
        return new Promise<ToolOutcome>(() => undefined);
      },
    });
    const { registry } = await harnessWith([slow.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('slow', { action: 'recall' }), ['slow'])));
    expect(result.errorKind).toBe('timeout');
    expect(runs).toBe(2);
  });

  it('turns a thrown error into an internal failure, without retrying it', async () => {
    let runs = 0;
    const broken = recordingTool('broken', {
      retries: 2,
      execute: async () => {
        runs += 1;
        throw new TypeError('cannot read x of undefined');
      },
    });
    const { registry } = await harnessWith([broken.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('broken', { action: 'recall' }), ['broken'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'internal', error: 'The tool "broken" failed: cannot read x of undefined' });
    expect(runs).toBe(1);
  });

  it('turns a synchronous throw into an internal failure too', async () => {
    const broken = recordingTool('broken', {
      execute: () => {
        throw new Error('sync boom');
      },
    });
    const { registry } = await harnessWith([broken.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('broken', { action: 'recall' }), ['broken'])));
    expect(result).toMatchObject({ ok: false, errorKind: 'internal', error: 'The tool "broken" failed: sync boom' });
  });

  it('cuts output longer than 16 000 characters, with a note saying so', async () => {
    const chatty = recordingTool('chatty', { answer: () => ({ ok: true, output: 'a'.repeat(16_000) + 'b'.repeat(500) }) });
    const exact = recordingTool('exact', { answer: () => ({ ok: true, output: 'c'.repeat(16_000) }) });
    const { registry } = await harnessWith([chatty.tool, exact.tool]);
    const long = resultOf(await registry.execute(requestFor(callOf('chatty', { action: 'recall' }), ['chatty'])));
    expect(long.output).toBe(`${'a'.repeat(16_000)}\n[output cut: 500 more characters not shown]`);
    const fits = resultOf(await registry.execute(requestFor(callOf('exact', { action: 'recall' }), ['exact'])));
    expect(fits.output).toBe('c'.repeat(16_000));
  });

  it('cuts a long business error the same way', async () => {
    const chatty = recordingTool('chatty', { answer: () => ({ ok: false, error: 'e'.repeat(16_010) }) });
    const { registry } = await harnessWith([chatty.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('chatty', { action: 'recall' }), ['chatty'])));
    expect(result.output.endsWith('\n[output cut: 10 more characters not shown]')).toBe(true);
  });

  it('passes ask_user style awaitAnswer on in the metadata', async () => {
    const asker = recordingTool('asker', { answer: () => ({ ok: true, output: 'Waiting.', awaitAnswer: { question: 'Which?', options: ['a', 'b'] } }) });
    const { registry } = await harnessWith([asker.tool]);
    const result = resultOf(await registry.execute(requestFor(callOf('asker', { action: 'recall' }), ['asker'])));
    expect(result.metadata).toEqual({ awaitAnswer: { question: 'Which?', options: ['a', 'b'] } });
  });
});

describe('registry.execute: audit entries', () => {
  it('writes one entry per call with tool, masked arguments, outcome and attempts', async () => {
    const memory = recordingTool('memory', { input: z.object({ action: z.enum(['remember', 'recall', 'forget']), apiKey: z.string(), note: z.string() }) });
    const h = await harnessWith([memory.tool]);
    await h.registry.execute(requestFor(callOf('memory', { action: 'remember', apiKey: 'sk-live-123', note: 'run --token=abc now' }), ['memory']));
    await h.registry.execute(requestFor(callOf('memory', { action: 'oops' }), ['memory']));
    await h.registry.execute(requestFor(callOf('ghost', {}), ['memory']));
    const entries = await h.audit.recent(10);
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      kind: 'tool-call',
      traceId: 'trace-1',
      sessionKey: 'telegram:1001',
      userId: '42',
      channel: 'telegram',
      tool: 'memory',
      arguments: { action: 'remember', apiKey: '***', note: 'run --token=*** now' },
      outcome: 'ok',
      attempts: 1,
    });
    expect(typeof entries[0]?.durationMs).toBe('number');
    expect(entries[1]).toMatchObject({ tool: 'memory', outcome: 'validation', attempts: 0, arguments: { action: 'oops' } });
    expect(entries[2]).toMatchObject({ tool: 'ghost', outcome: 'denied' });
    const text = JSON.stringify(entries);
    expect(text).not.toContain('sk-live-123');
    expect(text).not.toContain('abc');
  });

  it('carries a sub-task\'s chain into its tool\'s context and its audit entry', async () => {
    const memory = recordingTool('memory');
    const h = await harnessWith([memory.tool]);
    const delegationChain = [
      { name: 'fix-tests', parentExecutionId: 'exec-root', agentId: 'echo' },
      { name: 'lint', parentExecutionId: 'exec-child', agentId: 'echo' },
    ];
    await h.registry.execute(requestFor(callOf('memory', { action: 'recall' }), ['memory'], { allowedTools: ['memory'], delegationChain }));
    expect(memory.runs[0]?.context).toMatchObject({ allowedTools: ['memory'], delegationChain, parentExecutionId: 'exec-child', agentId: 'echo' });
    expect((await h.audit.recent(1))[0]).toMatchObject({ tool: 'memory', outcome: 'ok', delegationChain: ['fix-tests', 'lint'], parentExecutionId: 'exec-child' });
    await h.registry.execute(requestFor(callOf('memory', { action: 'forget' }), ['memory']));
    expect(memory.runs[1]?.context.delegationChain).toBeUndefined();
    expect((await h.audit.recent(1))[0]?.delegationChain).toBeUndefined();
  });

  it('writes nothing for a call that waits for approval', async () => {
    const memory = recordingTool('memory');
    const h = await harnessWith([memory.tool], { approvalHook: fixedHook({ decision: 'ask', reason: 'asks' }) });
    await h.registry.execute(requestFor(callOf('memory', { action: 'forget' }), ['memory']));
    expect(await h.audit.recent(10)).toEqual([]);
  });
});

describe('registry.execute: an unwritable audit folder', () => {
  it('still runs the tool and does not crash the process', async () => {
    const folder = createTemporaryFolder('audit-blocked');
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    // A file where the audit folder should be: mkdir fails, appends fail.
    writeFileSync(join(folder.path, 'audit'), 'not a folder');
    const memory = recordingTool('memory');
    harness = await createRegistryHarness({ tools: [memory.tool], dataDir: folder.path });
    const result = resultOf(await harness.registry.execute(requestFor(callOf('memory', { action: 'recall' }), ['memory'])));
    expect(result.ok).toBe(true);
    await harness.audit.flush();
    await harness.close();
    harness = undefined;
    folder.remove();
  });
});
