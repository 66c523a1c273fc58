/** A budget's scope and period as the sentences need them. */
export type BudgetWords = { readonly scope: 'chat' | 'user' | 'job' | 'global'; readonly id: string; readonly period: 'daily' | 'monthly' };

/** Every user-facing string about usage and budgets (part of Messages as `budget`). */
export type BudgetMessages = {
  /** The soft-limit card's question: "This chat has used 80 % of today's budget (1.6 of 2.0 USD). Continue?" */
  readonly softLimitQuestion: (words: BudgetWords, percent: number, amounts: string) => string;
  readonly softLimitExplanation: string;
  readonly continueLabel: (period: BudgetWords['period']) => string;
  /** Channels without buttons: how to answer a card whose choices carry their own labels (1 and 3). */
  readonly labelledReplyHint: (id: string, first: string, last: string) => string;
  readonly stopLabel: (period: BudgetWords['period']) => string;
  readonly continuedBy: (who: string, time: string, period: BudgetWords['period']) => string;
  readonly stoppedBy: (who: string, time: string, period: BudgetWords['period']) => string;
  /** The hard limit: one sentence, with when the budget resets. */
  readonly limitReached: (words: BudgetWords, amounts: string, resetsAt: string) => string;
  /** A person chose "stop" on the card: the turn does not run until the reset. */
  readonly stoppedUntilReset: (words: BudgetWords, resetsAt: string) => string;
  /** The card expired unanswered: the held message was not answered. */
  readonly notContinued: string;
  /** The per-turn ceiling stopped a turn. */
  readonly turnCeiling: (measure: 'tokens' | 'modelCalls', limit: string) => string;
  readonly amounts: (used: string, limit: string, unit: string) => string;
  readonly tokensUnit: string;
  readonly usageTitle: (chat: string) => string;
  readonly today: string;
  readonly thisMonth: string;
  readonly usageLine: (tokens: string, cost: string | undefined, calls: string) => string;
  readonly unpriced: (calls: string) => string;
  readonly budgetsHeader: string;
  readonly budgetLine: (words: BudgetWords, amounts: string, resetsAt: string) => string;
  readonly noBudgets: string;
  readonly everyone: (period: string) => string;
  readonly topJobs: string;
  readonly nothingYet: string;
  readonly budgetUsage: string;
  readonly budgetOnlyApprovers: string;
  readonly budgetNotConfigured: (words: BudgetWords, unit: string) => string;
  readonly budgetRaised: (words: BudgetWords, limit: string, resetsAt: string) => string;
};

const scopeEn = (words: BudgetWords) => ({ chat: 'This chat', user: 'You', job: `Scheduled job ${words.id}`, global: 'This bot as a whole' })[words.scope];
const scopeZh = (words: BudgetWords) => ({ chat: '本聊天', user: '你', job: `定时任务 ${words.id}`, global: '整个机器人' })[words.scope];
const hasEn = (words: BudgetWords) => `${scopeEn(words)} ${words.scope === 'user' ? 'have' : 'has'}`;
const periodEn = (period: BudgetWords['period']) => (period === 'daily' ? "today's" : "this month's");
const periodZh = (period: BudgetWords['period']) => (period === 'daily' ? '今日' : '本月');

/** The English budget messages. */
export const englishBudgetMessages: BudgetMessages = {
  softLimitQuestion: (words, percent, amounts) => `${hasEn(words)} used ${percent} % of ${periodEn(words.period)} budget (${amounts}). Continue?`,
  softLimitExplanation: 'Continue lets the conversation go on until the budget is used up; stop pauses it until the budget resets.',
  continueLabel: (period) => (period === 'daily' ? 'Continue for today' : 'Continue this month'),
  labelledReplyHint: (id, first, last) => `Reply 1 ${first} · 3 ${last} (id ${id})`,
  stopLabel: (period) => (period === 'daily' ? 'Stop until tomorrow' : 'Stop until next month'),
  continuedBy: (who, time, period) => `Continued ${period === 'daily' ? 'for today' : 'this month'} by ${who} at ${time}`,
  stoppedBy: (who, time, period) => `Stopped until ${period === 'daily' ? 'tomorrow' : 'next month'} by ${who} at ${time}`,
  limitReached: (words, amounts, resetsAt) => `${hasEn(words)} used up ${periodEn(words.period)} budget (${amounts}), so I stopped before asking the model; it resets ${resetsAt}.`,
  stoppedUntilReset: (words, resetsAt) => `${scopeEn(words)} ${words.scope === 'user' ? 'are' : 'is'} paused until ${periodEn(words.period)} budget resets ${resetsAt}, as decided on the budget card.`,
  notContinued: 'Nobody answered the budget card in time, so that message was not answered. Send it again to be asked once more.',
  turnCeiling: (measure, limit) => `I stopped this request: it reached the limit of ${limit} ${measure === 'tokens' ? 'tokens' : 'model calls'} per turn.`,
  amounts: (used, limit, unit) => `${used} of ${limit} ${unit}`,
  tokensUnit: 'tokens',
  usageTitle: (chat) => `Usage of this chat (${chat})`,
  today: 'Today',
  thisMonth: 'This month',
  usageLine: (tokens, cost, calls) => `${tokens} tokens${cost === undefined ? '' : ` · ${cost}`} · ${calls} model calls`,
  unpriced: (calls) => `${calls} calls of models without a price: their tokens count, their cost is unknown.`,
  budgetsHeader: 'Budgets:',
  budgetLine: (words, amounts, resetsAt) => `• ${words.scope} ${words.period}: ${amounts}, resets ${resetsAt}`,
  noBudgets: 'No budgets are configured.',
  everyone: (period) => `Everyone, ${period.toLowerCase()}:`,
  topJobs: 'Top scheduled jobs this month:',
  nothingYet: '(nothing yet)',
  budgetUsage: 'Usage: /budget (the budgets of this chat) · /budget raise <chat|user|global|job:<id>> <daily|monthly> <tokens|cost> <new limit>',
  budgetOnlyApprovers: 'Only approvers can raise a budget.',
  budgetNotConfigured: (words, unit) => `There is no ${words.period} ${unit} budget for ${words.scope} in the configuration, so there is nothing to raise.`,
  budgetRaised: (words, limit, resetsAt) => `Raised the ${words.period} budget of ${words.scope} ${words.id} to ${limit} until it resets ${resetsAt}.`,
};

/** The Chinese budget messages (no English words; currency codes and ids are shown as given). */
export const chineseBudgetMessages: BudgetMessages = {
  softLimitQuestion: (words, percent, amounts) => `${scopeZh(words)}已用掉${periodZh(words.period)}预算的 ${percent}%（${amounts}）。要继续吗？`,
  softLimitExplanation: '继续：对话照常进行，直到预算用完；停止：暂停到预算重置。',
  continueLabel: (period) => (period === 'daily' ? '今天继续' : '本月继续'),
  labelledReplyHint: (id, first, last) => `回复 1 ${first} · 3 ${last}（编号 ${id}）`,
  stopLabel: (period) => (period === 'daily' ? '停到明天' : '停到下月'),
  continuedBy: (who, time, period) => `${who} 于 ${time} 选择${period === 'daily' ? '今天' : '本月'}继续`,
  stoppedBy: (who, time, period) => `${who} 于 ${time} 选择停到${period === 'daily' ? '明天' : '下月'}`,
  limitReached: (words, amounts, resetsAt) => `${scopeZh(words)}的${periodZh(words.period)}预算已用完（${amounts}），所以没有调用模型；预算将于 ${resetsAt} 重置。`,
  stoppedUntilReset: (words, resetsAt) => `按预算卡片上的决定，${scopeZh(words)}暂停到${periodZh(words.period)}预算重置（${resetsAt}）。`,
  notContinued: '预算卡片无人及时回复，所以那条消息没有回答。再发一次会再次询问。',
  turnCeiling: (measure, limit) => `已停止这个请求：达到了每轮 ${limit} 个${measure === 'tokens' ? '令牌' : '模型调用'}的上限。`,
  amounts: (used, limit, unit) => `${used} / ${limit} ${unit}`,
  tokensUnit: '令牌',
  usageTitle: (chat) => `本聊天（${chat}）的用量`,
  today: '今天',
  thisMonth: '本月',
  usageLine: (tokens, cost, calls) => `${tokens} 令牌${cost === undefined ? '' : ` · ${cost}`} · ${calls} 次模型调用`,
  unpriced: (calls) => `${calls} 次调用的模型没有价格：只计令牌，费用未知。`,
  budgetsHeader: '预算：',
  budgetLine: (words, amounts, resetsAt) => `• ${scopeZh(words)} ${periodZh(words.period)}：${amounts}，${resetsAt} 重置`,
  noBudgets: '没有配置预算。',
  everyone: (period) => `所有人（${period}）：`,
  topJobs: '本月用量最多的定时任务：',
  nothingYet: '（暂无）',
  budgetUsage: '用法：/budget（本聊天的预算） · /budget raise <范围> <周期> <单位> <新上限>',
  budgetOnlyApprovers: '只有审批人可以提高预算。',
  budgetNotConfigured: (words, unit) => `配置中没有${scopeZh(words)}的${periodZh(words.period)}${unit}预算，无可提高。`,
  budgetRaised: (words, limit, resetsAt) => `已将${scopeZh(words)}（${words.id}）的${periodZh(words.period)}预算提高到 ${limit}，直到 ${resetsAt} 重置。`,
};
