import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import type { ModelPort, ModelRequest, ModelResult } from '../../../src/model/model-port.js';
import { createOpenAiProvider } from '../../../src/agent/providers/openai/index.js';
import { type ModelAttemptFailure, createResilientModel } from '../../../src/agent/resilient-model.js';
import { EchoError } from '../../../src/errors/index.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';

const request: ModelRequest = { messages: [{ role: 'user', content: 'ping' }] satisfies ChatMessage[], tools: [] };

const servers: ScriptedModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startServer(): Promise<ScriptedModelServer> {
  const server = await createScriptedModelServer();
  servers.push(server);
  return server;
}

function providerFor(server: ScriptedModelServer, name: string): ModelPort {
  return createOpenAiProvider({ name, apiKey: '', baseUrl: server.url, model: 'm' });
}

function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (milliseconds: number) => {
    delays.push(milliseconds);
  };
  return { delays, sleep };
}

function answerText(result: ModelResult): string {
  if (!result.ok) throw new Error(`expected an answer, got ${result.failure.kind}: ${result.failure.message}`);
  return result.answer.text;
}

describe('createResilientModel', () => {
  it('retries a 429 after the Retry-After wait and returns the answer', async () => {
    const server = await startServer();
    server.enqueue({ status: 429, retryAfterSeconds: 2 }, { text: 'after the wait' });
    const { delays, sleep } = recordingSleep();
    const model = createResilientModel({ providers: [providerFor(server, 'only')], sleep });

    const result = await model.complete(request);

    expect(answerText(result)).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it('caps a long Retry-After at maxDelayMs', async () => {
    const server = await startServer();
    server.enqueue({ status: 429, retryAfterSeconds: 120 }, { text: 'ok' });
    const { delays, sleep } = recordingSleep();
    const model = createResilientModel({ providers: [providerFor(server, 'only')], sleep, maxDelayMs: 3000 });

    expect(answerText(await model.complete(request))).toBe('ok');
    expect(delays).toEqual([3000]);
  });

  it('returns the failure as a value after retries when the server answers 500 forever', async () => {
    const server = await startServer();
    server.setFallback({ status: 500 });
    const { delays, sleep } = recordingSleep();
    const events: ModelAttemptFailure[] = [];
    const model = createResilientModel({
      providers: [providerFor(server, 'flaky')],
      retries: 3,
      baseDelayMs: 100,
      maxDelayMs: 300,
      sleep,
      random: () => 0.5,
      onAttemptFailed: (event) => events.push(event),
    });

    const result = await model.complete(request);

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toMatchObject({ kind: 'server', retryable: true, provider: 'flaky' });
    expect(server.requests).toHaveLength(4);
    // Full jitter: random × min(maxDelay, base × 2^n) → 0.5 × [100, 200, 300 (capped from 400)].
    expect(delays).toEqual([50, 100, 150]);
    expect(events.map((event) => event.next)).toEqual(['retry', 'retry', 'retry', 'give-up']);
  });

  it('fails over to the next provider once the first one is exhausted', async () => {
    const first = await startServer();
    const second = await startServer();
    first.setFallback({ status: 503 });
    second.enqueue({ text: 'from the backup' });
    const { delays, sleep } = recordingSleep();
    const model = createResilientModel({
      providers: [providerFor(first, 'primary'), providerFor(second, 'backup')],
      retries: 2,
      sleep,
    });

    const result = await model.complete(request);

    expect(model.name).toBe('primary,backup');
    expect(answerText(result)).toBe('from the backup');
    expect(first.requests).toHaveLength(3);
    expect(second.requests).toHaveLength(1);
    expect(delays).toHaveLength(2);
  });

  it('fails over at once, without retrying, on a bad request', async () => {
    const first = await startServer();
    const second = await startServer();
    first.setFallback({ status: 400, errorMessage: 'unknown model' });
    second.enqueue({ text: 'backup answered' });
    const { delays, sleep } = recordingSleep();
    const model = createResilientModel({ providers: [providerFor(first, 'primary'), providerFor(second, 'backup')], sleep });

    const result = await model.complete(request);

    expect(answerText(result)).toBe('backup answered');
    expect(first.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('returns the last failure when every provider fails', async () => {
    const first = await startServer();
    const second = await startServer();
    first.setFallback({ status: 500 });
    second.setFallback({ status: 401 });
    const { sleep } = recordingSleep();
    const model = createResilientModel({ providers: [providerFor(first, 'a'), providerFor(second, 'b')], retries: 1, sleep });

    const result = await model.complete(request);

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toMatchObject({ kind: 'auth', provider: 'b', retryable: false });
    expect(first.requests).toHaveLength(2);
    expect(second.requests).toHaveLength(1);
  });

  it('does not retry or fail over an aborted request', async () => {
    const first = await startServer();
    const second = await startServer();
    first.enqueue({ text: 'slow', delayMs: 5_000 });
    const { delays, sleep } = recordingSleep();
    const model = createResilientModel({ providers: [providerFor(first, 'a'), providerFor(second, 'b')], sleep });
    const controller = new AbortController();

    const pending = model.complete({ ...request, signal: controller.signal });
    // Aborted once the request is at the server: a busy machine may take longer than any fixed delay to get it there.
    await vi.waitFor(() => expect(first.requests).toHaveLength(1), { timeout: 10_000 });
    controller.abort();
    const result = await pending;

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.kind).toBe('aborted');
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(0);
    expect(delays).toEqual([]);
  });

  it('stops between attempts when the request is aborted during the backoff', async () => {
    const server = await startServer();
    server.setFallback({ status: 500 });
    const controller = new AbortController();
    const model = createResilientModel({
      providers: [providerFor(server, 'a')],
      sleep: async () => controller.abort(),
    });

    const result = await model.complete({ ...request, signal: controller.signal });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses to be built without providers or with negative retries', () => {
    expect(() => createResilientModel({ providers: [] })).toThrow(EchoError);
    const stub: ModelPort = { name: 'stub', complete: async () => ({ ok: true, answer: { text: '', toolCalls: [], finishReason: 'stop' } }) };
    expect(() => createResilientModel({ providers: [stub], retries: -1 })).toThrow(EchoError);
  });
});
