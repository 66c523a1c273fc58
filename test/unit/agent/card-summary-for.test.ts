import { describe, expect, it } from 'vitest';
import { cardSummaryFor } from '../../../src/agent/card-summary-for.js';
import { messagesFor } from '../../../src/i18n/messages.js';

const chain = [
  { name: 'fix-tests', parentExecutionId: 'exec-root', agentId: 'echo' },
  { name: 'lint', parentExecutionId: 'exec-child', agentId: 'echo' },
];
const visibleTools = new Set(['message', 'read_file', 'exec']);

describe('cardSummaryFor', () => {
  it('leaves a card of a person\'s own turn as the tool describes it', () => {
    expect(cardSummaryFor({ visibleTools }, 'Run: npm test', messagesFor('en'))).toBe('Run: npm test');
  });

  it('names the chain and the sub-task\'s tools on a card raised inside a sub-task', () => {
    const scope = { visibleTools, allowedTools: ['read_file', 'exec'], delegationChain: chain };
    expect(cardSummaryFor(scope, 'Run: npm test', messagesFor('en'))).toBe(
      'Via sub-task lint of sub-task fix-tests of your request. The sub-task may use: read_file, exec.\nRun: npm test',
    );
    expect(cardSummaryFor({ ...scope, delegationChain: chain.slice(0, 1) }, 'Run: npm test', messagesFor('zh-CN'))).toBe(
      '来自你的请求的子任务 fix-tests。该子任务可用的工具：read_file、exec。\nRun: npm test',
    );
  });
});
