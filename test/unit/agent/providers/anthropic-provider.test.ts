import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/model/chat-message.js';
import type { ModelResult, ToolSchema } from '../../../../src/model/model-port.js';
import { createAnthropicProvider } from '../../../../src/agent/providers/anthropic/index.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../../fakes/scripted-model-server.js';

const weatherTool: ToolSchema = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function answerOf(result: ModelResult) {
  if (!result.ok) throw new Error(`expected an answer, got ${result.failure.kind}: ${result.failure.message}`);
  return result.answer;
}

function failureOf(result: ModelResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.answer)}`);
  return result.failure;
}

describe('createAnthropicProvider over the scripted server', () => {
  let server: ScriptedModelServer;

  beforeEach(async () => {
    server = await createScriptedModelServer({ apiKey: 'sk-ant-secret' });
  });
  afterEach(async () => {
    await server.close();
  });

  const provider = (overrides: Partial<Parameters<typeof createAnthropicProvider>[0]> = {}) =>
    createAnthropicProvider({ apiKey: 'sk-ant-secret', baseUrl: server.origin, model: 'claude-test', ...overrides });

  it('sends the key as x-api-key too, which Anthropic-compatible gateways read', async () => {
    answerOf(await provider().complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
    expect(server.requests[0]?.headers['x-api-key']).toBe('sk-ant-secret');
  });

  it('sends system messages as the system param and reads a text answer', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: 'hi there' },
    ];
    const answer = answerOf(await provider().complete({ messages, tools: [] }));

    expect(answer).toEqual({ text: 'echo: hi there', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 }, model: 'claude-test' });
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/messages');
    expect(request?.body?.system).toBe('Be brief.\n\nAnswer in English.');
    expect(request?.body?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi there' }] }]);
    expect(request?.body?.model).toBe('claude-test');
    expect(request?.body?.max_tokens).toBe(4096);
    expect(request?.body).not.toHaveProperty('tools');
  });

  it('reads the usage object: input_tokens, cache reads apart, output_tokens', async () => {
    server.enqueue({ text: 'ok', usage: { input: 500, cachedInput: 2000, output: 42 } });
    const answer = answerOf(await provider().complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
    expect(answer.usage).toEqual({ inputTokens: 500, cachedInputTokens: 2000, outputTokens: 42 });
  });

  it('round-trips tool use: tool_use out, merged tool_result blocks back in', async () => {
    server.enqueue({
      text: 'Checking both.',
      toolCalls: [
        { id: 'toolu_paris', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'toolu_oslo', name: 'get_weather', arguments: { city: 'Oslo' } },
      ],
    });
    const first: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris and Oslo?' }];
    const answer = answerOf(await provider().complete({ messages: first, tools: [weatherTool] }));

    expect(answer).toEqual({
      text: 'Checking both.',
      toolCalls: [
        { id: 'toolu_paris', name: 'get_weather', argumentsText: '{"city":"Paris"}' },
        { id: 'toolu_oslo', name: 'get_weather', argumentsText: '{"city":"Oslo"}' },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 }, model: 'claude-test',
    });
    expect(server.requests[0]?.body?.tools).toEqual([
      { name: 'get_weather', description: weatherTool.description, input_schema: weatherTool.parameters },
    ]);

    server.enqueue({ text: 'Paris is sunny, Oslo is rainy.' });
    const second: ChatMessage[] = [
      ...first,
      { role: 'assistant', content: answer.text, toolCalls: answer.toolCalls },
      { role: 'tool', toolCallId: 'toolu_paris', toolName: 'get_weather', content: 'sunny' },
      { role: 'tool', toolCallId: 'toolu_oslo', toolName: 'get_weather', content: 'rainy' },
    ];
    const final = answerOf(await provider({ maxTokens: 256 }).complete({ messages: second, tools: [weatherTool] }));

    expect(final).toEqual({ text: 'Paris is sunny, Oslo is rainy.', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 10 }, model: 'claude-test' });
    const body = server.requests[1]?.body;
    expect(body?.max_tokens).toBe(256);
    expect(body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_paris', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_oslo', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_paris', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_oslo', content: 'rainy' },
        ],
      },
    ]);
  });

  it('maps 429 to rate-limited with Retry-After, and 529 to a retryable server failure', async () => {
    server.enqueue({ status: 429, retryAfterSeconds: 12 }, { status: 529, errorMessage: 'Overloaded' });
    const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];

    const limited = failureOf(await provider().complete({ messages, tools: [] }));
    expect(limited).toMatchObject({ kind: 'rate-limited', retryable: true, retryAfterSeconds: 12, provider: 'anthropic' });

    const overloaded = failureOf(await provider().complete({ messages, tools: [] }));
    expect(overloaded).toMatchObject({ kind: 'server', retryable: true });
    expect(overloaded.message).toContain('Overloaded');
  });

  it('maps a wrong key to auth, without the key in the message', async () => {
    const failure = failureOf(
      await provider({ apiKey: 'sk-ant-wrong-999' }).complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }),
    );
    expect(failure).toMatchObject({ kind: 'auth', retryable: false });
    expect(failure.message).not.toContain('sk-ant-wrong-999');
  });

  it('maps 400 to bad-request and a refused connection to network', async () => {
    server.enqueue({ status: 400, errorMessage: 'messages: roles must alternate' });
    const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    const bad = failureOf(await provider().complete({ messages, tools: [] }));
    expect(bad).toMatchObject({ kind: 'bad-request', retryable: false });
    expect(bad.message).toContain('roles must alternate');

    const closed = await createScriptedModelServer();
    const origin = closed.origin;
    await closed.close();
    const network = failureOf(
      await createAnthropicProvider({ apiKey: 'k', baseUrl: origin, model: 'm' }).complete({ messages, tools: [] }),
    );
    expect(network).toMatchObject({ kind: 'network', retryable: true });
    expect(network.message).toContain('ECONNREFUSED');
  });
});
