import { describe, expect, it } from 'vitest';
import { renderCallback } from '../../../../channels/webhook/render.js';

const target = { channel: 'webhook', chatId: 'c' };

describe('callback payloads', () => {
  it('posts final replies and mid-turn messages with their run id, and skips drafts and typing', () => {
    expect(renderCallback({ type: 'reply', target, text: 'done', kind: 'final', causationId: 'run-1' })).toEqual({ type: 'reply', chatId: 'c', runId: 'run-1', kind: 'final', text: 'done' });
    expect(renderCallback({ type: 'reply', target, text: 'note', kind: 'message' })).toMatchObject({ kind: 'message', text: 'note' });
    expect(renderCallback({ type: 'reply', target, text: 'dra', kind: 'progress' })).toBeUndefined();
    expect(renderCallback({ type: 'typing', target })).toBeUndefined();
  });

  it('names why a final reply could not answer (the model, the store, a budget) as failure', () => {
    expect(renderCallback({ type: 'reply', target, text: 'I could not reach the model.', kind: 'final', causationId: 'run-2', failure: { kind: 'model-unavailable' } })).toEqual({
      type: 'reply',
      chatId: 'c',
      runId: 'run-2',
      kind: 'final',
      text: 'I could not reach the model.',
      failure: 'model-unavailable',
    });
  });

  it('posts approval outcomes and questions as their own types', () => {
    expect(renderCallback({ type: 'approval-resolved', target, approvalId: 'a1', outcome: 'Approved by @x' })).toEqual({ type: 'approval-resolved', chatId: 'c', approvalId: 'a1', outcome: 'Approved by @x' });
    expect(renderCallback({ type: 'question-asked', target, questionId: 'q', text: 'Which?', options: ['a', 'b'] })).toMatchObject({ type: 'question-asked', options: ['a', 'b'] });
  });
});
