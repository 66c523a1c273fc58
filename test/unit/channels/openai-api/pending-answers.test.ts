import { describe, expect, it } from 'vitest';
import { createPendingAnswers } from '../../../../channels/openai-api/pending-answers.js';

const card = { approvalId: 'k3m9', toolName: 'deploy', summary: 'Deploy', argumentsText: '', risk: 'exec', requestedBy: 'alice', expiresAt: '2026-01-01T00:00:00Z', explanation: '', choices: ['once', 'deny'] } as const;

describe('the requests waiting for answers', () => {
  it('gives a turn that continues after its card to the request that decided it, in the same conversation only', async () => {
    const pending = createPendingAnswers();
    const asking = pending.open({ runId: 'run-x', chatId: 'alice/ops', timeoutMs: 10_000 });
    pending.settle('run-x', { kind: 'approval', card });
    expect(await asking.answered).toEqual({ kind: 'approval', card });
    const elsewhere = pending.open({ runId: 'run-z', chatId: 'alice/other', timeoutMs: 10_000 });
    const deciding = pending.open({ runId: 'run-y', chatId: 'alice/ops', timeoutMs: 10_000 });
    expect(pending.find('run-x', 'alice/ops')).toBe('run-y');
    pending.settle('run-y', { kind: 'reply', text: 'done' });
    expect(await deciding.answered).toEqual({ kind: 'reply', text: 'done' });
    expect(pending.find('run-x', 'alice/ops')).toBeUndefined();
    expect(pending.has('run-z')).toBe(true);
    pending.clear();
    expect(await elsewhere.answered).toEqual({ kind: 'timeout' });
  });

  it('does not give the answer of a request whose client left to the next request of the conversation', () => {
    const pending = createPendingAnswers();
    pending.open({ runId: 'run-left', chatId: 'alice/ops', timeoutMs: 10_000 });
    pending.close('run-left');
    pending.open({ runId: 'run-next', chatId: 'alice/ops', timeoutMs: 10_000 });
    expect(pending.find('run-left', 'alice/ops')).toBeUndefined();
    expect(pending.find('run-next', 'alice/ops')).toBe('run-next');
    // Output of no run (the runtime's answer to a numbered reply) goes to the conversation's newest request.
    expect(pending.find(undefined, 'alice/ops')).toBe('run-next');
    pending.clear();
  });

  it('answers `timeout` when nothing came in time, and keeps the messages sent before the answer', async () => {
    const pending = createPendingAnswers();
    const waiting = pending.open({ runId: 'run-slow', chatId: 'bob/x', timeoutMs: 5 });
    pending.interim('run-slow', { kind: 'message', text: 'working on it' });
    expect(await waiting.answered).toEqual({ kind: 'timeout' });
    expect(waiting.messages).toEqual(['working on it']);
    expect(pending.has('run-slow')).toBe(false);
  });
});
