import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/model/chat-message.js';
import type { ModelResult, ToolSchema } from '../../../../src/model/model-port.js';
import { createOpenAiProvider } from '../../../../src/agent/providers/openai/index.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../../fakes/scripted-model-server.js';

const weatherTool: ToolSchema = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const hello: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'hello' },
];

function answerOf(result: ModelResult) {
  if (!result.ok) throw new Error(`expected an answer, got ${result.failure.kind}: ${result.failure.message}`);
  return result.answer;
}

function failureOf(result: ModelResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.answer)}`);
  return result.failure;
}

describe('createOpenAiProvider over the scripted server', () => {
  let server: ScriptedModelServer;

  beforeEach(async () => {
    server = await createScriptedModelServer({ apiKey: 'sk-test-secret' });
  });
  afterEach(async () => {
    await server.close();
  });

  const provider = (overrides: Partial<Parameters<typeof createOpenAiProvider>[0]> = {}) =>
    createOpenAiProvider({ apiKey: 'sk-test-secret', baseUrl: server.url, model: 'gpt-test', ...overrides });

  it('streams text, calling onTextDelta with several pieces that add up to the answer', async () => {
    server.enqueue({ text: 'The quick brown fox jumps over the lazy dog' });
    const deltas: string[] = [];
    const result = await provider().complete({ messages: hello, tools: [], onTextDelta: (delta) => deltas.push(delta) });

    const answer = answerOf(result);
    expect(answer).toEqual({ text: 'The quick brown fox jumps over the lazy dog', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 }, model: 'gpt-test' });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(answer.text);
    const body = server.requests[0]?.body;
    expect(body?.stream).toBe(true);
    expect(body?.model).toBe('gpt-test');
    expect(body?.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'hello' },
    ]);
    expect(body).not.toHaveProperty('tools');
  });

  it('answers without streaming when stream is false', async () => {
    server.enqueue({ text: 'plain answer' });
    const deltas: string[] = [];
    const result = await provider({ stream: false }).complete({ messages: hello, tools: [], onTextDelta: (d) => deltas.push(d) });

    expect(answerOf(result)).toEqual({ text: 'plain answer', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 }, model: 'gpt-test' });
    expect(deltas).toEqual([]);
    expect(server.requests[0]?.body?.stream).not.toBe(true);
  });

  it('reassembles streamed tool-call deltas with ids and arguments text intact', async () => {
    const rawArguments = '{"city":"Zürich","note":"naïve \\"quotes\\" and emoji 🌦"}';
    server.enqueue({
      text: 'Let me check.',
      toolCalls: [
        { id: 'call_abc', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2, 3] } },
        { id: 'call_def', name: 'get_weather', arguments: rawArguments },
      ],
    });
    const result = await provider().complete({ messages: hello, tools: [weatherTool], onTextDelta: () => undefined });

    expect(server.requests[0]?.body?.stream).toBe(true);
    expect(answerOf(result)).toEqual({
      text: 'Let me check.',
      toolCalls: [
        { id: 'call_abc', name: 'get_weather', argumentsText: '{"city":"Paris","days":[1,2,3]}' },
        { id: 'call_def', name: 'get_weather', argumentsText: rawArguments },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 }, model: 'gpt-test',
    });
    expect(server.requests[0]?.body?.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.parameters } },
    ]);
  });

  it('reads the usage object, cached prompt tokens apart, streamed (asking include_usage) and not', async () => {
    const usage = { input: 1200, cachedInput: 800, output: 345 };
    server.enqueue({ text: 'streamed', usage }, { text: 'whole', usage });
    const streamed = answerOf(await provider().complete({ messages: hello, tools: [], onTextDelta: () => undefined }));
    const whole = answerOf(await provider().complete({ messages: hello, tools: [] }));

    expect(server.requests[0]?.body?.stream_options).toEqual({ include_usage: true });
    for (const answer of [streamed, whole]) expect(answer.usage).toEqual({ inputTokens: 1200, cachedInputTokens: 800, outputTokens: 345 });
  });

  it('does not stream when nobody reads the text as it comes', async () => {
    server.enqueue({ text: 'Hello there, friend.' });
    const result = await provider().complete({ messages: hello, tools: [] });
    expect(answerOf(result).text).toBe('Hello there, friend.');
    expect(server.requests[0]?.body?.stream).not.toBe(true);
  });

  it('reads tool calls from a non-streamed answer', async () => {
    server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const answer = answerOf(await provider({ stream: false }).complete({ messages: hello, tools: [weatherTool] }));

    expect(answer.finishReason).toBe('tool-calls');
    expect(answer.text).toBe('');
    expect(answer.toolCalls).toHaveLength(1);
    expect(answer.toolCalls[0]?.name).toBe('get_weather');
    expect(JSON.parse(answer.toolCalls[0]?.argumentsText ?? '')).toEqual({ city: 'Oslo' });
    expect(answer.toolCalls[0]?.id).toMatch(/^call_/);
  });

  it('sends assistant tool calls as tool_calls and tool results as role tool', async () => {
    const conversation: ChatMessage[] = [
      { role: 'user', content: 'weather in Paris?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', argumentsText: '{"city":"Paris"}' }] },
      { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: 'sunny, 21°C' },
    ];
    server.enqueue({ text: 'Sunny.' });
    await provider().complete({ messages: conversation, tools: [weatherTool], maxTokens: 64 });

    const body = server.requests[0]?.body;
    expect(body?.messages).toEqual([
      { role: 'user', content: 'weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21°C' },
    ]);
    expect(body?.max_tokens).toBe(64);
  });

  it('answers from a handler that reads the last user message', async () => {
    server.enqueue((_body, context) => ({ text: `you said ${context.lastUserText.toUpperCase()}` }));
    const answer = answerOf(await provider().complete({ messages: hello, tools: [] }));
    expect(answer.text).toBe('you said HELLO');
  });

  it('maps 429 to rate-limited with the Retry-After seconds', async () => {
    server.enqueue({ status: 429, retryAfterSeconds: 7 });
    const failure = failureOf(await provider().complete({ messages: hello, tools: [] }));
    expect(failure).toMatchObject({ kind: 'rate-limited', retryable: true, retryAfterSeconds: 7, provider: 'openai' });
  });

  it('maps 500 to a retryable server failure', async () => {
    server.enqueue({ status: 500, errorMessage: 'upstream exploded' });
    const failure = failureOf(await provider({ name: 'primary' }).complete({ messages: hello, tools: [] }));
    expect(failure).toMatchObject({ kind: 'server', retryable: true, provider: 'primary' });
    expect(failure.message).toContain('upstream exploded');
    expect(failure.retryAfterSeconds).toBeUndefined();
  });

  it('maps 400 to a non-retryable bad-request', async () => {
    server.enqueue({ status: 400, errorMessage: 'messages must not be empty' });
    const failure = failureOf(await provider().complete({ messages: hello, tools: [] }));
    expect(failure).toMatchObject({ kind: 'bad-request', retryable: false });
  });

  it('maps 401 to auth and never repeats the key, even when the server echoes it', async () => {
    const wrongKey = 'sk-wrong-key-123456';
    const result = await provider({ apiKey: wrongKey }).complete({ messages: hello, tools: [] });
    const failure = failureOf(result);
    expect(failure).toMatchObject({ kind: 'auth', retryable: false });

    server.enqueue({ status: 401, errorMessage: 'Incorrect API key provided: sk-test-secret.' });
    const echoed = failureOf(await provider().complete({ messages: hello, tools: [] }));
    expect(echoed.kind).toBe('auth');
    expect(echoed.message).not.toContain('sk-test-secret');
    expect(echoed.message).toContain('[redacted]');
  });

  it('maps a refused connection to a retryable network failure', async () => {
    const closed = await createScriptedModelServer();
    const url = closed.url;
    await closed.close();
    const failure = failureOf(
      await createOpenAiProvider({ apiKey: '', baseUrl: url, model: 'm' }).complete({ messages: hello, tools: [] }),
    );
    expect(failure).toMatchObject({ kind: 'network', retryable: true });
    expect(failure.message).toContain('ECONNREFUSED');
  });

  it('maps a server slower than timeoutMs to a retryable timeout', async () => {
    server.enqueue({ text: 'too late', delayMs: 5_000 });
    const failure = failureOf(await provider({ timeoutMs: 150 }).complete({ messages: hello, tools: [] }));
    expect(failure).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('maps an aborted request to aborted, not retryable', async () => {
    server.enqueue({ text: 'never seen', delayMs: 5_000 });
    const controller = new AbortController();
    const pending = provider().complete({ messages: hello, tools: [], signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const failure = failureOf(await pending);
    expect(failure).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('sends a placeholder bearer key when the key is empty (local endpoints)', async () => {
    const open = await createScriptedModelServer();
    try {
      const answer = answerOf(
        await createOpenAiProvider({ apiKey: '', baseUrl: open.url, model: 'local' }).complete({ messages: hello, tools: [] }),
      );
      expect(answer.text).toBe('echo: hello');
      expect(open.requests[0]?.headers.authorization).toBe('Bearer not-needed');
    } finally {
      await open.close();
    }
  });

  it('reads a whole answer that is not a chat completion (a proxy page, wrong JSON) as a retryable server failure', async () => {
    const answers = [
      { status: 200, type: 'application/json', body: '{"hello":"world"}' },
      { status: 200, type: 'text/html', body: '<html>captive portal</html>' },
      { status: 502, type: 'text/html', body: '<html>Bad Gateway</html>' },
    ];
    const peer = await startRawServer((index) => answers[index] ?? { status: 500, type: 'text/plain', body: 'unexpected' });
    try {
      const client = createOpenAiProvider({ apiKey: 'k', baseUrl: peer.url, model: 'm' });
      const notCompletion = failureOf(await client.complete({ messages: hello, tools: [] }));
      expect(notCompletion).toMatchObject({ kind: 'server', retryable: true });
      expect(notCompletion.message).toContain('not a chat completion');
      const html = failureOf(await client.complete({ messages: hello, tools: [] }));
      expect(html).toMatchObject({ kind: 'server', retryable: true });
      const gateway = failureOf(await client.complete({ messages: hello, tools: [] }));
      expect(gateway).toMatchObject({ kind: 'server', retryable: true });
      expect(gateway.message).toContain('HTTP 502');
      expect(gateway.message).toContain('Bad Gateway');
    } finally {
      await peer.close();
    }
  });
});

/** A plain HTTP server answering the nth request with `answer(n)`: a peer that does not speak the API. */
async function startRawServer(answer: (index: number) => { status: number; type: string; body: string }): Promise<{ url: string; close(): Promise<void> }> {
  let count = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const { status, type, body } = answer(count);
      count += 1;
      response.writeHead(status, { 'content-type': type }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
