import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { createSessionHistory, type SessionRecord, trimHistory } from '../../../src/agent/session-history.js';
import { createSummaryMessage } from '../../../src/memory/compaction-summary.js';
import { createStore } from '../../../src/store/create-store.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const answer = (content: string): ChatMessage => ({ role: 'assistant', content });
const callsTools = (content: string, ...ids: string[]): ChatMessage => ({
  role: 'assistant',
  content,
  toolCalls: ids.map((id) => ({ id, name: 'memory', argumentsText: '{"action":"recall"}' })),
});
const toolResult = (id: string, content: string): ChatMessage => ({ role: 'tool', toolCallId: id, toolName: 'memory', content });

/** Every assistant message with tool calls is followed by exactly its results; no result is orphaned. */
function expectToolPairsIntact(messages: readonly ChatMessage[]): void {
  const answered = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant' && message.toolCalls) {
      const ids = message.toolCalls.map((call) => call.id);
      const following = messages.slice(index + 1, index + 1 + ids.length);
      expect(following.map((item) => (item.role === 'tool' ? item.toolCallId : `not a tool result (${item.role})`))).toEqual(ids);
      for (const id of ids) answered.add(id);
    }
    if (message.role === 'tool') expect(answered.has(message.toolCallId)).toBe(true);
  }
}

const size = (messages: readonly ChatMessage[]) =>
  messages.reduce(
    (total, message) =>
      total + message.content.length + (message.role === 'assistant' ? (message.toolCalls ?? []).reduce((sum, call) => sum + call.name.length + call.argumentsText.length, 0) : 0),
    0,
  );

/** A conversation of `exchanges` exchanges, each: a question, a call with two tools, their results, an answer. */
function conversation(exchanges: number, width = 50): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let index = 0; index < exchanges; index += 1) {
    messages.push(
      user(`q${index} ${'u'.repeat(width)}`),
      callsTools(`c${index}`, `call-${index}-a`, `call-${index}-b`),
      toolResult(`call-${index}-a`, 'r'.repeat(width)),
      toolResult(`call-${index}-b`, 'r'.repeat(width)),
      answer(`a${index} ${'a'.repeat(width)}`),
    );
  }
  return messages;
}

describe('trimHistory', () => {
  it('returns the history unchanged when it fits', () => {
    const messages = conversation(3);
    expect(trimHistory(messages, size(messages))).toBe(messages);
  });

  it('drops the oldest exchanges until the rest fits the budget', () => {
    const messages = conversation(10);
    const budget = Math.floor(size(messages) / 2);
    const trimmed = trimHistory(messages, budget);
    expect(size(trimmed)).toBeLessThanOrEqual(budget);
    expect(trimmed[0]?.role).toBe('user');
    expect(trimmed.at(-1)).toEqual(messages.at(-1));
    // Only whole exchanges are dropped: the rest is a suffix of the original.
    expect(messages.slice(messages.length - trimmed.length)).toEqual(trimmed);
    // And as few as needed: one more exchange would not have fit.
    const oneMore = messages.slice(messages.length - trimmed.length - 5);
    expect(size(oneMore)).toBeGreaterThan(budget);
  });

  it('never separates an assistant message with tool calls from its results, at any budget', () => {
    const messages = conversation(6, 30);
    for (let budget = 0; budget <= size(messages); budget += 37) {
      const trimmed = trimHistory(messages, budget);
      expectToolPairsIntact(trimmed);
      expect(trimmed[0]?.role).toBe('user');
    }
  });

  it('keeps every message of the newest exchange, but cuts a text that alone is over the budget, with a note', () => {
    const messages = [...conversation(2), user('last question'), callsTools('', 'big'), toolResult('big', 'x'.repeat(5_000)), answer('done')];
    const trimmed = trimHistory(messages, 1000);
    expect(trimmed.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(trimmed[0]).toEqual(user('last question'));
    expect(trimmed[3]).toEqual(answer('done'));
    const cut = trimmed[2]?.content ?? '';
    expect(cut.length).toBeLessThan(1000);
    expect(cut).toMatch(/^x+\n\[cut to fit the history budget: \d+ more characters not kept\]$/);
  });

  it('does not re-send a huge user message whole with every later turn', () => {
    const huge = 'y'.repeat(900_000);
    const trimmed = trimHistory([user('hello'), answer('hi'), user(huge), answer('I read it')], 40_000);
    const total = trimmed.reduce((sum, message) => sum + message.content.length, 0);
    expect(total).toBeLessThan(41_000);
    expect(trimmed.find((message) => message.role === 'user')?.content).toContain('[cut to fit the history budget');
  });

  it('cuts only before user messages, even inside a long run of tool rounds', () => {
    const messages = [
      user('old'),
      answer('old answer'),
      user('do many things'),
      callsTools('', '1'),
      toolResult('1', 'x'.repeat(300)),
      callsTools('', '2'),
      toolResult('2', 'y'.repeat(300)),
      answer('finished'),
    ];
    expect(trimHistory(messages, 680)).toEqual(messages.slice(2));
  });

  it('keeps a history that starts with a non-user message (after an earlier trim) intact', () => {
    const messages = [answer('x'.repeat(100)), user('q'), answer('a')];
    expect(trimHistory(messages, 10)).toEqual([user('q'), answer('a')]);
  });

  it('counts tool-call arguments in the budget', () => {
    const heavy: ChatMessage[] = [user('q'), { role: 'assistant', content: '', toolCalls: [{ id: '1', name: 'exec', argumentsText: 'z'.repeat(500) }] }, toolResult('1', 'ok'), user('next'), answer('a')];
    expect(trimHistory(heavy, 100)).toEqual(heavy.slice(3));
  });
});

describe('trimHistory with a compaction summary at the head', () => {
  it('keeps the summary at the head and drops the oldest exchanges after it', () => {
    const summary = createSummaryMessage('The person prefers tea.');
    const messages = [summary, ...conversation(10)];
    const budget = Math.floor(size(messages) / 2);
    const trimmed = trimHistory(messages, budget);
    expect(trimmed[0]).toEqual(summary);
    expect(trimmed[1]?.role).toBe('user');
    expect(size(trimmed)).toBeLessThanOrEqual(budget);
    expect(messages.slice(messages.length - (trimmed.length - 1))).toEqual(trimmed.slice(1));
    expectToolPairsIntact(trimmed);
  });
});

describe('createSessionHistory over a real SQLite file', () => {
  const folders: ReturnType<typeof createTemporaryFolder>[] = [];
  afterEach(() => {
    while (folders.length > 0) folders.pop()?.remove();
  });

  async function open(folder: string, budgetChars = 10_000) {
    const store = await createStore({ dataDir: folder });
    return { store, history: createSessionHistory(store.namespace<SessionRecord>('sessions'), { budgetChars }) };
  }

  it('keeps each session apart and survives a reopen of the store', async () => {
    const folder = createTemporaryFolder('history');
    folders.push(folder);
    const first = await open(folder.path);
    await first.history.append('telegram:1', [user('hello'), answer('hi')]);
    await first.history.append('telegram:2', [user('other')]);
    await first.history.append('telegram:1', [user('again'), callsTools('', 'c1'), toolResult('c1', 'r'), answer('done')]);
    await first.store.close();

    const second = await open(folder.path);
    expect(await second.history.load('telegram:1')).toEqual([user('hello'), answer('hi'), user('again'), callsTools('', 'c1'), toolResult('c1', 'r'), answer('done')]);
    expect(await second.history.load('telegram:2')).toEqual([user('other')]);
    expect(await second.history.load('telegram:3')).toEqual([]);
    await second.store.close();
  });

  it('trims to the budget when it stores, keeping tool results with their calls', async () => {
    const folder = createTemporaryFolder('history-trim');
    folders.push(folder);
    const { store, history } = await open(folder.path, 1_000);
    for (const message of conversation(20, 40)) await history.append('telegram:1', [message]);
    const stored = await history.load('telegram:1');
    expect(size(stored)).toBeLessThanOrEqual(1_000);
    expect(stored[0]?.role).toBe('user');
    expectToolPairsIntact(stored);
    expect(stored.at(-1)).toEqual(conversation(20, 40).at(-1));
    await store.close();
  });

  it('does not write when there is nothing to append', async () => {
    const folder = createTemporaryFolder('history-empty');
    folders.push(folder);
    const { store, history } = await open(folder.path);
    await history.append('telegram:1', []);
    expect(await store.namespace<SessionRecord>('sessions').get('telegram:1')).toBeUndefined();
    await store.close();
  });

  it('update rewrites the messages in one step; concurrent appends are not lost', async () => {
    const folder = createTemporaryFolder('history-update');
    folders.push(folder);
    const { store, history } = await open(folder.path);
    await history.append('telegram:1', [user('q'), callsTools('', 'c1'), toolResult('c1', 'placeholder abc')]);
    await Promise.all([
      history.update('telegram:1', (messages) => messages.map((message) => (message.role === 'tool' ? { ...message, content: 'real result' } : message))),
      history.append('telegram:1', [user('meanwhile')]),
    ]);
    const stored = await history.load('telegram:1');
    expect(stored).toContainEqual(toolResult('c1', 'real result'));
    expect(stored).toContainEqual(user('meanwhile'));
    expect(stored).toHaveLength(4);
    await store.close();
  });

  it('reset forgets the session', async () => {
    const folder = createTemporaryFolder('history-reset');
    folders.push(folder);
    const { store, history } = await open(folder.path);
    await history.append('telegram:1', [user('q')]);
    await history.reset('telegram:1');
    expect(await history.load('telegram:1')).toEqual([]);
    await store.close();
  });
});
