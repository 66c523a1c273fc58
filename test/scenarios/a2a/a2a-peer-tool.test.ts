import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeA2aPeer, startFakeA2aPeer } from '../../fakes/fake-a2a-peer.js';
import { personKey, startCaller } from './a2a-caller-world.js';

let caller: Awaited<ReturnType<typeof startCaller>> | undefined;
afterEach(async () => {
  await caller?.stop();
  caller = undefined;
});

describe('a2a__<peer>: a peer that needs input', () => {
  let painter: FakeA2aPeer | undefined;
  afterEach(async () => {
    await painter?.close();
    painter = undefined;
  });

  it("shows the peer's question to the person in the chat and sends their answer back on the same task", async () => {
    painter = await startFakeA2aPeer();
    caller = await startCaller(painter.url);
    const client = new OpenAI({ apiKey: personKey, baseURL: `${caller.baseUrl}/v1`, maxRetries: 0 });
    const ask = (content: string) => client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content }], user: 'paint' });
    const question = await ask('please ask the peer to paint');
    expect(question.choices[0]?.message.content).toContain('The agent "peer" asks: Which color?');
    const second = await ask('blue');
    expect(second.choices[0]?.message.content).toContain('the peer says: painted blue');
    expect(painter.answers).toEqual(['blue']);
  });

  it('reaches a peer still on protocol 0.3 through the SDK’s compatibility layer, question and answer included', async () => {
    painter = await startFakeA2aPeer({ protocol: '0.3' });
    caller = await startCaller(painter.url);
    const client = new OpenAI({ apiKey: personKey, baseURL: `${caller.baseUrl}/v1`, maxRetries: 0 });
    const ask = (content: string) => client.chat.completions.create({ model: 'echo-agent', messages: [{ role: 'user', content }], user: 'paint-old' });
    expect((await ask('please ask the peer to paint')).choices[0]?.message.content).toContain('The agent "peer" asks: Which color?');
    expect((await ask('green')).choices[0]?.message.content).toContain('the peer says: painted green');
    expect(painter.answers).toEqual(['green']);
  });
});
