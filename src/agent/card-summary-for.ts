import type { Messages } from '../i18n/messages.js';
import { toolsVisibleTo } from '../policy/plan-delegation.js';
import type { TurnScope } from './turn-scope.js';

/**
 * The summary a card shows: the tool's own, led in a sub-task by the chain it came through and the tools
 * the sub-task may use, so whoever decides sees what the delegate may do. Pure.
 */
export function cardSummaryFor(scope: Pick<TurnScope, 'visibleTools' | 'allowedTools' | 'delegationChain'>, summary: string, messages: Messages): string {
  const chain = scope.delegationChain ?? [];
  if (chain.length === 0) return summary;
  const via = messages.approvalViaSubTask(
    chain.map((link) => link.name),
    [...toolsVisibleTo(scope)],
  );
  return `${via}\n${summary}`;
}
