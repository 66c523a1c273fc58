// Vector similarity with an embeddings endpoint (the scripted model server's POST /v1/embeddings, deterministic
// vectors): facts are embedded when written, the message at recall, and a fact no keyword finds is recalled by meaning;
// the vectors are in the store, so recall works the same after a restart; a forgotten fact leaves no vector behind;
// every embeddings call is counted in the usage ledger.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScopeVectors } from '../../../src/memory/create-fact-vectors.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import { deterministicEmbedding, type ScriptedRequestBody } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const isExtraction = (body: ScriptedRequestBody | undefined) => body?.messages?.[0]?.content === factExtractionPrompt;

function extraction(body: ScriptedRequestBody): { text: string } {
  const text = String(body.messages?.[1]?.content ?? '');
  const facts = [...text.matchAll(/my ([a-z ]+?) is (\w+)/gi)].map((match) => ({ subject: match[1] ?? '', statement: `Their ${match[1]} is ${match[2]}.`, about: 'speaker' }));
  return { text: JSON.stringify({ facts }) };
}

/** An embedding model that knows a puppy is a dog: the deterministic vectors, with that one synonym. */
const withSynonyms = (text: string) => deterministicEmbedding(text.replace(/\bpupp(y|ies)\b/gi, 'dog'));

describe('memory with an embeddings endpoint', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('recalls by meaning what keywords miss, from vectors kept in the store (also after a restart); a forgotten fact\'s vector goes with it', async () => {
    // A budget for one short fact: what comes first is what the ranking chose.
    const yaml = 'memory:\n  enabled: true\n  retrieval:\n    budgetChars: 25\n  embeddings:\n    model: embed-test\n';
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml });
    const current = scenario;
    current.model.setEmbedding(withSynonyms);
    current.model.setFallback((body, context) => (isExtraction(body) ? extraction(body) : { text: `ok: ${context.lastUserText.split('\n')[0]}` }));
    const alice = current.client({ userId: 1001, userName: 'alice' });
    for (const text of ['my dog is Biscuit', 'my home city is Paris', 'my favourite drink is tea']) {
      await alice.sendMessage(alice.makeMessage(text));
      await current.waitForBotMessage((message) => message.text === `ok: ${text}`, `the answer to "${text}"`);
    }
    await current.testApp.app.bus.idle();
    const factWrites = () => current.model.embeddings.filter((request) => request.inputs[0]?.includes(': Their'));
    // Each answered message is archived as an exchange (the message and the answer) and embedded when written too.
    const exchangeWrites = () => current.model.embeddings.filter((request) => request.inputs[0]?.includes('\nok: '));
    const recallQueries = () => current.model.embeddings.filter((request) => !factWrites().includes(request) && !exchangeWrites().includes(request));
    await waitFor(() => factWrites().length >= 3 && exchangeWrites().length >= 3, 'the facts and exchanges embedded');
    expect(exchangeWrites().map((request) => request.inputs)).toEqual([['my dog is Biscuit\nok: my dog is Biscuit'], ['my home city is Paris\nok: my home city is Paris'], ['my favourite drink is tea\nok: my favourite drink is tea']]);
    // Each turn's message is embedded for recall too (before its facts exist).
    expect(recallQueries().map((request) => request.inputs)).toEqual([['my home city is Paris'], ['my favourite drink is tea']]);
    expect(factWrites().map((request) => request.inputs)).toEqual([['dog: Their dog is Biscuit.'], ['home city: Their home city is Paris.'], ['favourite drink: Their favourite drink is tea.']]);
    expect(current.model.embeddings.every((request) => request.model === 'embed-test')).toBe(true);

    const systemPromptOf = (question: string) => String(current.modelRequests().filter((request) => !isExtraction(request.body) && JSON.stringify(request.body?.messages).includes(question)).at(-1)?.body?.messages?.[0]?.content ?? '');
    await alice.sendMessage(alice.makeMessage('puppy name?'));
    await current.waitForBotMessage((message) => message.text === 'ok: puppy name?', 'the answer');
    expect(recallQueries().at(-1)?.inputs).toEqual(['puppy name?']);
    expect(systemPromptOf('puppy name?')).toContain('Their dog is Biscuit.');
    expect(systemPromptOf('puppy name?')).not.toMatch(/Paris|tea/);

    // Each embeddings call is counted in the usage ledger under its model, as origin memory.
    const { app } = current.testApp;
    await app.bus.idle();
    const { day } = app.budgets.ledger.periods();
    const embedded = current.model.embeddings.length;
    await waitFor(async () => (await app.budgets.ledger.totals({ period: day, dimension: 'model', id: 'embed-test' })).calls === embedded, 'every embeddings call counted');

    await current.restartApp();
    await alice.sendMessage(alice.makeMessage('puppies name again?'));
    await current.waitForBotMessage((message) => message.text === 'ok: puppies name again?', 'the answer after the restart');
    expect(systemPromptOf('puppies name again?')).toContain('Their dog is Biscuit.');

    const vectors = async () => JSON.stringify(await current.testApp.app.store.namespace<ScopeVectors>('memory-vectors').entries());
    const dogId = /"id":"([^"]+)","scope":\{[^}]*\},"subject":"dog"/.exec(JSON.stringify(await current.testApp.app.store.namespace('memory-facts').entries()))?.[1] ?? '';
    expect(dogId).not.toBe('');
    expect(await vectors()).toContain(dogId);
    await alice.sendMessage(alice.makeMessage('/forget dog'));
    await current.waitForBotMessage((message) => message.text === 'Forgotten: 1 fact.', 'the forget');
    // The archived exchange the fact was taken from ("my dog is Biscuit") goes with it, so nothing recalls the dog any more.
    expect(JSON.stringify(await current.testApp.app.store.namespace('memory-exchanges').entries())).not.toContain('Biscuit');
    expect(await vectors()).not.toContain(dogId);
  });

  it('without embeddings.model no embedding call is made, and keywords alone do not find the puppy', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'memory:\n  enabled: true\n  retrieval:\n    budgetChars: 25\n' });
    const current = scenario;
    current.model.setFallback((body, context) => (isExtraction(body) ? extraction(body) : { text: `ok: ${context.lastUserText.split('\n')[0]}` }));
    const alice = current.client({ userId: 1001 });
    for (const text of ['my dog is Biscuit', 'my home city is Paris']) {
      await alice.sendMessage(alice.makeMessage(text));
      await current.waitForBotMessage((message) => message.text === `ok: ${text}`, `the answer to "${text}"`);
    }
    await current.testApp.app.bus.idle();
    await alice.sendMessage(alice.makeMessage('puppy name?'));
    await current.waitForBotMessage((message) => message.text === 'ok: puppy name?', 'the question');
    await current.testApp.app.bus.idle();
    expect(current.model.embeddings).toEqual([]);
    const prompt = String(current.modelRequests().filter((request) => !isExtraction(request.body) && JSON.stringify(request.body?.messages).includes('puppy name?')).at(-1)?.body?.messages?.[0]?.content ?? '');
    expect(prompt).toContain('Their home city is Paris.');
    expect(prompt).not.toContain('Biscuit');
  });
});
