import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer, deterministicEmbedding, type ScriptedModelServer } from '../../../fakes/scripted-model-server.js';

type StreamChunk = {
  object: string;
  choices: { delta: { content?: string; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[];
};

async function postChat(server: ScriptedModelServer, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
}

describe('the scripted model server itself', () => {
  let server: ScriptedModelServer;
  beforeEach(async () => {
    server = await createScriptedModelServer({ model: 'scripted-1' });
  });
  afterEach(async () => {
    await server.close();
  });

  it('streams SSE chunks: role first, content and tool arguments in pieces, finish reason, then [DONE]', async () => {
    server.enqueue({ text: 'several words of text', toolCalls: [{ id: 'call_x', name: 'lookup', arguments: { query: 'abcdefgh' } }] });
    const response = await postChat(server, { stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream');

    const lines = (await response.text()).split('\n\n').filter((line) => line !== '');
    expect(lines.at(-1)).toBe('data: [DONE]');
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line.replace(/^data: /, '')) as StreamChunk);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant' });

    const contents = chunks.flatMap((chunk) => (chunk.choices[0]?.delta.content ? [chunk.choices[0].delta.content] : []));
    expect(contents.length).toBeGreaterThan(1);
    expect(contents.join('')).toBe('several words of text');

    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: 'call_x', function: { name: 'lookup', arguments: '' } });
    const argumentPieces = toolDeltas.slice(1).map((delta) => delta.function?.arguments ?? '');
    expect(argumentPieces.length).toBeGreaterThan(1);
    expect(argumentPieces.join('')).toBe('{"query":"abcdefgh"}');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('uses queued steps first, then the fallback, which defaults to an echo', async () => {
    server.enqueue({ text: 'first' });
    expect(server.remaining()).toBe(1);
    const first = (await (await postChat(server, {})).json()) as { choices: { message: { content: string } }[] };
    const second = (await (await postChat(server, {})).json()) as { choices: { message: { content: string } }[] };
    expect(first.choices[0]?.message.content).toBe('first');
    expect(second.choices[0]?.message.content).toBe('echo: hi');
    expect(server.remaining()).toBe(0);

    server.setFallback((_body, context) => ({ status: 503, errorMessage: `down for ${context.lastUserText}` }));
    const failed = await postChat(server, {});
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ error: { message: 'down for hi' } });
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions']);
  });

  it('serves GET /v1/models and answers 404 elsewhere', async () => {
    const models = await fetch(`${server.url}/models`);
    expect(await models.json()).toMatchObject({ object: 'list', data: [{ id: 'scripted-1' }] });
    // /embeddings is served now (memory's vector recall); another unrouted path stands for "elsewhere".
    const missing = await fetch(`${server.url}/images/generations`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
  });

  it('answers POST /v1/embeddings with deterministic vectors in input order, recorded apart from the chat calls', async () => {
    const before = server.requests.length;
    const embed = async (input: unknown) => (await (await fetch(`${server.url}/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'embed-1', input }) })).json()) as { data: { index: number; embedding: number[] }[] };
    const first = await embed(['my dog Biscuit', 'the weather']);
    const again = await embed('my dog Biscuit');
    expect(first.data.map((item) => item.index)).toEqual([0, 1]);
    expect(again.data[0]?.embedding).toEqual(first.data[0]?.embedding);
    expect(first.data[0]?.embedding).toHaveLength(64);
    expect(first.data[0]?.embedding).not.toEqual(first.data[1]?.embedding);
    expect(server.embeddings.slice(-2).map((request) => request.inputs)).toEqual([['my dog Biscuit', 'the weather'], ['my dog Biscuit']]);
    expect(server.requests.length).toBe(before);
    server.setEmbedding(() => ({ status: 503 }));
    expect((await fetch(`${server.url}/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'embed-1', input: 'x' }) })).status).toBe(503);
    server.setEmbedding(deterministicEmbedding);
  });

  it('turns a throwing handler into a 500 instead of crashing', async () => {
    server.enqueue(() => {
      throw new Error('handler bug');
    });
    const response = await postChat(server, {});
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('handler bug') } });
  });
});
