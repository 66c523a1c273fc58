import { describe, expect, it } from 'vitest';
import { describeBudgets } from '../../../src/doctor/describe-budgets.js';
import { configWith } from '../../fakes/config-with.js';

describe('the doctor on budgets', () => {
  it('says budgets are off by default, and where a cautious start is', () => {
    expect(describeBudgets(configWith())).toEqual([expect.objectContaining({ status: 'off', subject: 'budgets', text: expect.stringContaining('config/examples/budgets.yaml') })]);
  });

  it('lists the configured budgets in one line and warns when a cost budget meets a model without a price', () => {
    const lines = describeBudgets(configWith({ budgets: { chat: { daily: { tokens: 200000 } }, user: { monthly: { cost: 20 } }, perTurn: { modelCalls: 25 } } }));
    expect(lines[0]).toEqual({ status: 'ok', subject: 'budgets', text: 'chat daily 200,000 tokens · user monthly 20 USD · per turn 25 model calls · card at 80 %' });
    expect(lines[1]).toMatchObject({ status: 'warn', text: expect.stringContaining('gpt-4o-mini has no entry in prices') });
    const priced = describeBudgets(configWith({ budgets: { user: { monthly: { cost: 20 } } }, prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } } }));
    expect(priced.map((line) => line.status)).toEqual(['ok']);
  });
});
