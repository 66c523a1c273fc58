import { describe, expect, it } from 'vitest';
import { type AuthoredText, createFactExtractor } from '../../../src/memory/create-fact-extractor.js';
import { createFactStore, type FactList } from '../../../src/memory/create-fact-store.js';
import { factExtractionPrompt, parseExtractedFacts } from '../../../src/memory/fact-extraction-prompt.js';
import type { UsageAttribution } from '../../../src/model/model-port.js';
import { type ScriptedAnswer, scriptedModel, silentLogger } from '../registry/turn-fixtures.js';
import { useScratchStores } from '../../fakes/use-scratch-stores.js';

const attribution: UsageAttribution = { origin: 'user', sessionKey: 'telegram:-100', userId: '42', channel: 'telegram', chatId: '-100' };
const authored = (text: string, isGroup = true): AuthoredText => ({
  text,
  source: { messageId: '7', authorId: '42', authorName: 'Alice', channel: 'telegram', chatId: isGroup ? '-100' : '42', at: '2026-12-02T08:00:00.000Z' },
  trust: isGroup ? 'group-member' : 'allowed-user',
  isGroup,
});

describe('parseExtractedFacts', () => {
  it('accepts the JSON shape, also in a code fence', () => {
    const json = '{"facts":[{"subject":"home city","statement":"Alice lives in Lyon.","about":"speaker"}]}';
    expect(parseExtractedFacts(json)?.facts).toHaveLength(1);
    expect(parseExtractedFacts(`\`\`\`json\n${json}\n\`\`\``)?.facts).toHaveLength(1);
  });

  it('refuses anything else', () => {
    expect(parseExtractedFacts('Alice lives in Lyon.')).toBeUndefined();
    expect(parseExtractedFacts('{"facts":[{"subject":"x","statement":"y","about":"someone else"}]}')).toBeUndefined();
    expect(parseExtractedFacts('{"facts":[{"subject":"","statement":"y","about":"chat"}]}')).toBeUndefined();
    expect(parseExtractedFacts('[]')).toBeUndefined();
  });
});

describe('the fact extractor', () => {
  const openStore = useScratchStores('extractor');

  async function open(script: readonly ScriptedAnswer[]) {
    const store = await openStore();
    const facts = createFactStore(store.namespace<FactList>('memory-facts'), { now: () => new Date('2026-12-02T09:00:00Z') });
    const { model, requests } = scriptedModel(script);
    return { facts, requests, extract: createFactExtractor({ model, facts, logger: await silentLogger() }) };
  }

  it('gives the model only the person\'s words with the fixed prompt, and files each fact in its scope', async () => {
    const answer = JSON.stringify({
      facts: [
        { subject: 'home city', statement: 'Alice lives in Lyon.', about: 'speaker' },
        { subject: 'team meeting day', statement: 'The team meets on Tuesdays.', about: 'chat' },
      ],
    });
    const { facts, requests, extract } = await open([{ text: answer }]);
    const outcome = await extract(authored('I live in Lyon, and we meet on Tuesdays.'), attribution);
    expect(outcome.kind).toBe('recorded');
    expect(requests[0]?.messages).toEqual([
      { role: 'system', content: factExtractionPrompt },
      { role: 'user', content: 'Message from Alice:\nI live in Lyon, and we meet on Tuesdays.' },
    ]);
    expect(requests[0]?.attribution).toEqual({ ...attribution, origin: 'memory' });
    expect(requests[0]?.tools).toEqual([]);
    const person = await facts.current({ kind: 'person', channel: 'telegram', userId: '42' });
    expect(person.map((fact) => [fact.statement, fact.trust, fact.source.messageId])).toEqual([['Alice lives in Lyon.', 'group-member', '7']]);
    expect((await facts.current({ kind: 'group', channel: 'telegram', chatId: '-100' })).map((fact) => fact.statement)).toEqual(['The team meets on Tuesdays.']);
  });

  it('in a private chat, a fact about the conversation goes to that chat, not to a group', async () => {
    const { facts, extract } = await open([{ text: '{"facts":[{"subject":"project name","statement":"The project is called Orca.","about":"chat"}]}' }]);
    await extract(authored('Our project is called Orca.', false), attribution);
    expect((await facts.current({ kind: 'chat', channel: 'telegram', chatId: '42' })).map((fact) => fact.statement)).toEqual(['The project is called Orca.']);
    expect(await facts.current({ kind: 'group', channel: 'telegram', chatId: '42' })).toEqual([]);
  });

  it('records nothing when the answer is not valid', async () => {
    const { facts, extract } = await open([{ text: 'Sure! Alice lives in Lyon.' }]);
    expect(await extract(authored('I live in Lyon.'), attribution)).toEqual({ kind: 'invalid-answer' });
    expect(await facts.current({ kind: 'person', channel: 'telegram', userId: '42' })).toEqual([]);
  });
});
