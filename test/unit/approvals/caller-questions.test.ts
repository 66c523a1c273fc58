import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallerQuestion } from '../../../src/approvals/caller-question.js';
import { type CallerQuestions, createCallerQuestions } from '../../../src/approvals/caller-questions.js';
import { createAuditLog } from '../../../src/registry/audit-log.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

const chat = { channel: 'telegram', chatId: '1001' };
const askedBy = { keyName: 'claude-code', client: 'Claude Code', userId: '1001' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function createHarness(): Promise<{ questions: CallerQuestions; clock: { now: Date }; store: Store }> {
  const folder = createTemporaryFolder('caller-questions');
  const store = await createStore({ dataDir: folder.path });
  cleanups.push(async () => {
    await store.close();
    folder.remove();
  });
  const clock = { now: new Date('2026-03-01T12:00:00.000Z') };
  const questions = createCallerQuestions({
    questions: store.namespace<CallerQuestion>('caller-questions'),
    openByChat: store.namespace<string[]>('caller-questions-open'),
    audit: createAuditLog({ directory: join(folder.path, 'audit') }),
    timeoutMs: 60_000,
    now: () => clock.now,
  });
  return { questions, clock, store };
}

const answerFrom = (id: string, from = chat, answer = 'yes') => ({ id, chat: from, answer, answeredById: '1002', answeredByName: 'Ann' });

describe('caller questions (ask_person records)', () => {
  it('takes one answer, from anyone in the chat it was shown in, and only once', async () => {
    const { questions } = await createHarness();
    await questions.open({ id: 'q1', question: 'Ship?', options: ['yes', 'no'], target: chat, askedBy });
    expect(await questions.answer(answerFrom('q1', { channel: 'telegram', chatId: '2002' }))).toEqual({ ok: false, code: 'other-chat' });
    const taken = await questions.answer(answerFrom('q1'));
    expect(taken).toMatchObject({ ok: true, question: { status: 'answered', answer: 'yes', answeredBy: 'Ann' } });
    expect(await questions.answer(answerFrom('q1', chat, 'no'))).toEqual({ ok: false, code: 'already-answered' });
    expect((await questions.get('q1'))?.answer).toBe('yes');
    expect(await questions.answer(answerFrom('missing'))).toEqual({ ok: false, code: 'not-found' });
  });

  it('is expired once past its deadline: no answer is taken and it is no longer open in the chat', async () => {
    const { questions, clock } = await createHarness();
    await questions.open({ id: 'q1', question: 'Ship?', options: [], target: chat, askedBy });
    clock.now = new Date(clock.now.getTime() + 60_001);
    expect((await questions.get('q1'))?.status).toBe('expired');
    expect(await questions.newestOpenIn(chat)).toBeUndefined();
    expect(await questions.answer(answerFrom('q1'))).toEqual({ ok: false, code: 'expired' });
  });

  it('finds the newest open question of a chat for typed answers; answered and withdrawn ones are skipped', async () => {
    const { questions } = await createHarness();
    await questions.open({ id: 'q1', question: 'First?', options: [], target: chat, askedBy });
    await questions.open({ id: 'q2', question: 'Second?', options: [], target: chat, askedBy });
    expect((await questions.newestOpenIn(chat))?.id).toBe('q2');
    await questions.answer(answerFrom('q2'));
    expect((await questions.newestOpenIn(chat))?.id).toBe('q1');
    await questions.withdraw('q1');
    expect(await questions.newestOpenIn(chat)).toBeUndefined();
    expect(await questions.get('q1')).toBeUndefined();
    expect(await questions.newestOpenIn({ channel: 'telegram', chatId: '2002' })).toBeUndefined();
  });
});
