import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../fakes/start-test-app.js';
import { apiKeys, type OpenaiApiWorld, postJson, startOpenaiApiWorld } from './openai-api-world.js';

let world: OpenaiApiWorld;

beforeAll(async () => {
  world = await startOpenaiApiWorld();
});
afterAll(async () => {
  await world.stop();
});

/** The model's requests whose messages mention `text`. */
function modelRequestsWith(text: string): number {
  return world.model.requests.filter((request) => request.path === '/v1/chat/completions' && JSON.stringify(request.body?.messages ?? []).includes(text)).length;
}

describe('the OpenAI-compatible endpoint, driven by the official openai client', () => {
  it('answers a completion with the agent\'s reply, as one chat.completion', async () => {
    const completion = await world.client(apiKeys.alice).chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'hello there' }], user: 'plain' });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBe('echo: hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams the answer as chat.completion.chunk events ending in a stop, which the client reassembles', async () => {
    const stream = await world.client(apiKeys.alice).chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'stream me please' }], user: 'streamed', stream: true });
    const pieces: string[] = [];
    const finishes: (string | null)[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      pieces.push(chunk.choices[0]?.delta.content ?? '');
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(pieces.join('')).toBe('echo: stream me please');
    expect(finishes.at(-1)).toBe('stop');
    expect(finishes.slice(0, -1).every((finish) => finish === null)).toBe(true);
  });

  it('runs the tools the model asks for inside the agent: the client sees only the final text, never tool_calls', async () => {
    const completion = await world.client(apiKeys.alice).chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'please look up order 42' }], user: 'orders' });
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('done: order 42 shipped');
    expect(message?.tool_calls).toBeUndefined();
    expect(world.lookups).toEqual(['42']);
  });

  it('takes the last user message as the new input; the agent keeps the conversation itself', async () => {
    const client = world.client(apiKeys.alice);
    await client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'first words history-one' }], user: 'history' });
    const second = await client.chat.completions.create({
      model: 'echo-agent',
      messages: [
        { role: 'user', content: 'first words history-one' },
        { role: 'assistant', content: 'echo: first words history-one' },
        { role: 'user', content: 'second words history-two' },
      ],
      user: 'history',
    });
    expect(second.choices[0]?.message.content).toBe('echo: second words history-two');
    // The first message reached the model once as input and once more as the agent's own history, never twice as input.
    const last = world.model.requests.at(-1)?.body?.messages ?? [];
    expect(last.filter((message) => message.role === 'user' && JSON.stringify(message.content).includes('history-one'))).toHaveLength(1);
  });

  it('starts the conversation\'s session afresh on /new, as in a chat', async () => {
    const client = world.client(apiKeys.alice);
    await client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'remember mango-3' }], user: 'renewed' });
    const renewed = await client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: '/new' }], user: 'renewed' });
    expect(renewed.choices[0]?.message.content).not.toBe('');
    await client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'what now?' }], user: 'renewed' });
    expect(JSON.stringify(world.model.requests.at(-1)?.body?.messages)).not.toContain('mango-3');
  });

  it('refuses a missing or wrong key with 401 and an OpenAI-style error, and runs nothing', async () => {
    const before = world.model.requests.length;
    const missing = await postJson({ baseUrl: world.baseUrl, path: '/v1/chat/completions', body: { model: 'x', messages: [{ role: 'user', content: 'no key' }] } });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: { type: 'authentication_error', code: 'invalid_api_key', message: expect.any(String) } });
    const wrong = world.client('sk-echo-not-a-key-0123456789abcdef').chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'wrong key' }] });
    await expect(wrong).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const models = await fetch(`${world.baseUrl}/v1/models`);
    expect(models.status).toBe(401);
    expect(world.model.requests.length).toBe(before);
  });

  it('lists the agent as one model', async () => {
    const models = await world.client(apiKeys.bob).models.list();
    expect(models.data.map((model) => model.id)).toEqual(['echo-agent']);
  });

  it('keeps two keys\' conversations apart even under the same conversation name', async () => {
    await world.client(apiKeys.alice).chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'my secret word is alpaca-7' }], user: 'shared-name' });
    const bob = await world.client(apiKeys.bob).chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'what did I say before?' }], user: 'shared-name' });
    expect(bob.choices[0]?.message.content).toBe('echo: what did I say before?');
    expect(JSON.stringify(world.model.requests.at(-1)?.body?.messages)).not.toContain('alpaca-7');
    // The header names the conversation too, inside the key's own sessions: alice's history is there for alice.
    const alice = await postJson({ baseUrl: world.baseUrl, path: '/v1/chat/completions', key: apiKeys.alice, headers: { 'x-session-id': 'shared-name' }, body: { model: 'x', messages: [{ role: 'user', content: 'and again' }] } });
    expect(alice.status).toBe(200);
    expect(JSON.stringify(world.model.requests.at(-1)?.body?.messages)).toContain('alpaca-7');
  });

  it('does not lose the turn of a client that hangs up: the answer comes with its next request', async () => {
    world.model.enqueue({ text: 'the slow answer', delayMs: 400 });
    const leaving = new AbortController();
    const client = world.client(apiKeys.alice);
    const request = client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'take your time' }], user: 'leaver' }, { signal: leaving.signal });
    await waitFor(() => modelRequestsWith('take your time') > 0, 'the turn to start');
    leaving.abort();
    await expect(request).rejects.toThrow();
    // The turn runs on without its client; once the bus is idle its answer has been handed to the conversation.
    await world.app.app.bus.idle();
    const next = await client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'are you there?' }], user: 'leaver' });
    expect(next.choices[0]?.message.content).toBe('the slow answer\n\necho: are you there?');
  });

  it('a client that hangs up and asks again at once gets its new answer, the earlier one before it, never in its place', async () => {
    world.model.enqueue({ text: 'answer for the one who left', delayMs: 300 });
    const leaving = new AbortController();
    const client = world.client(apiKeys.alice);
    const request = client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'slow question' }], user: 'impatient' }, { signal: leaving.signal });
    await waitFor(() => modelRequestsWith('slow question') > 0, 'the turn to start');
    leaving.abort();
    await expect(request).rejects.toThrow();
    const again = await client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content: 'second question' }], user: 'impatient' });
    expect(again.choices[0]?.message.content).toBe('answer for the one who left\n\necho: second question');
  });
});
