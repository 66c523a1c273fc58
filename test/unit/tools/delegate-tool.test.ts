import { describe, expect, it } from 'vitest';
import { readSubTaskRequest } from '../../../src/agent/plan-sub-task.js';
import { delegateTool } from '../../../tools/delegate-tool.js';

describe('the delegate tool', () => {
  it('returns the request as metadata the loop reads, with the call\'s execution id as the parent link', async () => {
    const input = delegateTool.input.parse({ name: 'fix-tests', instructions: 'Fix them.', tools: ['exec'] });
    const outcome = await delegateTool.execute(input, { executionId: 'exec-1' } as Parameters<typeof delegateTool.execute>[1]);
    if (!outcome.ok) throw new Error('refused');
    expect(readSubTaskRequest(outcome.metadata ?? {})).toEqual({ name: 'fix-tests', instructions: 'Fix them.', tools: ['exec'], limits: {}, executionId: 'exec-1' });
    expect(delegateTool.risk).toBe('write');
  });

  it('refuses a name that is not a short slug and limits below one', () => {
    expect(delegateTool.input.safeParse({ name: 'Fix Tests!', instructions: 'x', tools: [] }).success).toBe(false);
    expect(delegateTool.input.safeParse({ name: 'ok', instructions: 'x', tools: [], limits: { modelCalls: 0 } }).success).toBe(false);
    expect(readSubTaskRequest({ awaitAnswer: { question: 'q' } })).toBeUndefined();
  });
});
