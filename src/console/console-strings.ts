import type { Locale } from '../i18n/messages.js';

/** Every string the web console's pages show (zh-CN and en, like the chat messages). */
export type ConsoleStrings = {
  readonly title: string;
  readonly nav: { readonly approvals: string; readonly activity: string; readonly usage: string; readonly schedules: string; readonly health: string; readonly logout: string };
  readonly signedInAs: (name: string, role: string) => string;
  readonly approver: string;
  readonly member: string;
  readonly pending: string;
  readonly noPending: string;
  readonly decided: string;
  readonly noDecided: string;
  readonly tool: string;
  readonly risk: string;
  readonly arguments: string;
  readonly explanation: string;
  readonly whyAsked: string;
  readonly askedBy: string;
  readonly chat: string;
  readonly age: string;
  readonly approve: string;
  readonly deny: string;
  readonly decidedBy: (who: string, when: string, via: string) => string;
  readonly viaConsole: string;
  readonly viaChat: string;
  readonly decision: Readonly<Record<'done' | 'not-found' | 'not-allowed' | 'already-decided' | 'choice-not-offered' | 'expired', string>>;
  readonly refused: Readonly<Record<'no-session' | 'bad-csrf' | 'not-approver' | 'bad-form', string>>;
  readonly login: Readonly<Record<'unknown' | 'expired' | 'used', string>> & { readonly again: string; readonly intro: string; readonly confirm: string };
  readonly activity: { readonly filter: string; readonly any: string; readonly channel: string; readonly user: string; readonly origin: string; readonly kind: string; readonly outcome: string; readonly when: string; readonly what: string; readonly none: string; readonly turn: string; readonly steps: string; readonly duration: string; readonly model: string; readonly tokens: string; readonly modelCalls: string; readonly modelCallsNote: string; readonly modelCallsAround: string };
  readonly usage: { readonly perDay: string; readonly today: string; readonly tokens: string; readonly cost: string; readonly calls: string; readonly byUser: string; readonly byChat: string; readonly byJob: string; readonly budgets: string; readonly limit: string; readonly none: string };
  readonly schedules: { readonly none: string; readonly schedule: string; readonly next: string; readonly lastRun: string; readonly runNow: string; readonly pause: string; readonly resume: string; readonly pausedBy: (who: string, when: string) => string; readonly remove: string; readonly target: string; readonly prompt: string; readonly done: Readonly<Record<'run' | 'pause' | 'resume' | 'delete', string>>; readonly failed: string };
  readonly health: { readonly status: string; readonly channels: string; readonly mcp: string; readonly instance: string; readonly instances: string; readonly thisOne: string; readonly leads: string; readonly queue: string; readonly store: string; readonly parked: string; readonly noParked: string; readonly retry: string; readonly drop: string; readonly parkedDone: Readonly<Record<'retry' | 'drop', string>>; readonly parkedMissing: string; readonly uptime: string };
  readonly live: string;
  readonly minutesAgo: (minutes: number) => string;
};

const en: ConsoleStrings = {
  title: 'echo-agent console',
  nav: { approvals: 'Approvals', activity: 'Activity', usage: 'Usage', schedules: 'Schedules', health: 'Health', logout: 'Log out' },
  signedInAs: (name, role) => `${name} · ${role}`,
  approver: 'approver',
  member: 'member (your chats only)',
  pending: 'Waiting for a decision',
  noPending: 'Nothing is waiting for you.',
  decided: 'Decided',
  noDecided: 'No decisions yet.',
  tool: 'Tool',
  risk: 'Risk',
  arguments: 'Arguments',
  explanation: 'Why it matters',
  whyAsked: 'Why it asks',
  askedBy: 'Asked by',
  chat: 'Chat',
  age: 'Waiting',
  approve: 'Approve',
  deny: 'Deny',
  decidedBy: (who, when, via) => `${who}, ${when}, ${via}`,
  viaConsole: 'in the console',
  viaChat: 'in a chat',
  decision: {
    done: 'Decided. The chat card was updated and the turn goes on.',
    'not-found': 'That approval does not exist (any more).',
    'not-allowed': 'Only approvers can decide this.',
    'already-decided': 'It was decided already.',
    'choice-not-offered': 'That choice is not offered for this action.',
    expired: 'It expired before the decision.',
  },
  refused: {
    'no-session': 'Log in first: send /console to the agent in a private chat and open the link.',
    'bad-csrf': 'The form was stale or came from elsewhere: nothing was changed. Reload the page and try again.',
    'not-approver': 'Only approvers can do this.',
    'bad-form': 'The form was incomplete: nothing was changed.',
  },
  login: {
    unknown: 'This link is not valid.',
    expired: 'This link has expired (links work for 10 minutes).',
    used: 'This link was used already (each link works once).',
    again: 'Send /console to the agent in a private chat for a new one.',
    intro: 'This one-time link logs you in to the console on this device.',
    confirm: 'Log in',
  },
  activity: { filter: 'Filter', any: 'any', channel: 'Channel', user: 'User', origin: 'Origin', kind: 'Step', outcome: 'Outcome', when: 'When', what: 'What happened', none: 'Nothing recorded yet.', turn: 'Turn', steps: 'Steps', duration: 'Duration', model: 'Model', tokens: 'Tokens in → out', modelCalls: 'Model calls', modelCallsNote: 'Newest first, made by this instance since it started (totals per day are on the Usage page).', modelCallsAround: 'Model calls of this turn' },
  usage: { perDay: 'Tokens per day (last 14 days)', today: 'Today', tokens: 'Tokens', cost: 'Cost', calls: 'Model calls', byUser: 'By person (this month)', byChat: 'By chat (this month)', byJob: 'By job (this month)', budgets: 'Budgets', limit: 'limit', none: 'No usage recorded yet.' },
  schedules: { none: 'No scheduled jobs.', schedule: 'Schedule', next: 'Next run', lastRun: 'Last run', runNow: 'Run now', pause: 'Pause', resume: 'Resume', pausedBy: (who, when) => `paused by ${who}, ${when}`, remove: 'Delete', target: 'Answers in', prompt: 'Task', done: { run: 'The job was started; its run shows below once it ends.', pause: 'Paused: it will not run until resumed.', resume: 'Resumed: it runs again from its next time.', delete: 'Deleted.' }, failed: 'Not done: the job is gone, spent, or already running (see its last runs).' },
  health: { status: 'Status', channels: 'Channels', mcp: 'MCP servers', instance: 'This instance', instances: 'Instances on this store (with the console on)', thisOne: 'this one', leads: 'Leads', queue: 'Queued events', store: 'Store', parked: 'Parked turns', noParked: 'No parked turns.', retry: 'Retry', drop: 'Drop', parkedDone: { retry: 'Put back: it runs again shortly.', drop: 'Dropped for good.' }, parkedMissing: 'That parked turn is gone (retried or dropped already).', uptime: 'Up for' },
  live: 'New activity: the page was updated.',
  minutesAgo: (minutes) => (minutes < 1 ? 'just now' : minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`),
};

const zhCN: ConsoleStrings = {
  title: 'echo-agent 控制台',
  nav: { approvals: '审批', activity: '活动', usage: '用量', schedules: '定时任务', health: '健康', logout: '退出' },
  signedInAs: (name, role) => `${name} · ${role}`,
  approver: '审批人',
  member: '成员（仅限你的聊天）',
  pending: '等待决定',
  noPending: '没有等待你决定的请求。',
  decided: '已决定',
  noDecided: '还没有决定。',
  tool: '工具',
  risk: '风险',
  arguments: '参数',
  explanation: '风险说明',
  whyAsked: '为何需要批准',
  askedBy: '请求人',
  chat: '聊天',
  age: '已等待',
  approve: '批准',
  deny: '拒绝',
  decidedBy: (who, when, via) => `${who}，${when}，${via}`,
  viaConsole: '在控制台中',
  viaChat: '在聊天中',
  decision: {
    done: '已决定。聊天中的卡片已更新，对话继续。',
    'not-found': '该审批不存在（或已删除）。',
    'not-allowed': '只有审批人可以决定。',
    'already-decided': '已经被决定过了。',
    'choice-not-offered': '此操作不提供该选项。',
    expired: '在决定之前已过期。',
  },
  refused: {
    'no-session': '请先登录：在私聊中向智能体发送 /console 并打开链接。',
    'bad-csrf': '表单已过期或来源不明：未做任何更改。请刷新页面后重试。',
    'not-approver': '只有审批人可以执行此操作。',
    'bad-form': '表单不完整：未做任何更改。',
  },
  login: {
    unknown: '此链接无效。',
    expired: '此链接已过期（链接 10 分钟内有效）。',
    used: '此链接已被使用（每个链接只能使用一次）。',
    again: '请在私聊中向智能体发送 /console 获取新链接。',
    intro: '此一次性链接将在本设备上登录控制台。',
    confirm: '登录',
  },
  activity: { filter: '筛选', any: '全部', channel: '渠道', user: '用户', origin: '来源', kind: '步骤', outcome: '结果', when: '时间', what: '发生了什么', none: '还没有记录。', turn: '轮次', steps: '步骤', duration: '耗时', model: '模型', tokens: '令牌 输入 → 输出', modelCalls: '模型调用', modelCallsNote: '最新的在前，仅包括本实例启动以来的调用（每日合计见用量页）。', modelCallsAround: '本轮的模型调用' },
  usage: { perDay: '每日令牌（最近 14 天）', today: '今天', tokens: '令牌', cost: '费用', calls: '模型调用', byUser: '按用户（本月）', byChat: '按聊天（本月）', byJob: '按任务（本月）', budgets: '预算', limit: '上限', none: '还没有用量记录。' },
  schedules: { none: '没有定时任务。', schedule: '计划', next: '下次运行', lastRun: '上次运行', runNow: '立即运行', pause: '暂停', resume: '恢复', pausedBy: (who, when) => `已由 ${who} 于 ${when} 暂停`, remove: '删除', target: '回复到', prompt: '任务', done: { run: '任务已启动，运行结束后会显示在下方。', pause: '已暂停：恢复之前不会运行。', resume: '已恢复：从下一个时间点开始运行。', delete: '已删除。' }, failed: '未完成：任务不存在、已结束或正在运行（见最近运行记录）。' },
  health: { status: '状态', channels: '渠道', mcp: 'MCP 服务器', instance: '本实例', instances: '共用此存储的实例（已开启控制台）', thisOne: '本实例', leads: '负责', queue: '排队事件', store: '存储', parked: '搁置的轮次', noParked: '没有搁置的轮次。', retry: '重试', drop: '删除', parkedDone: { retry: '已放回：稍后会重新运行。', drop: '已永久删除。' }, parkedMissing: '该搁置的轮次已不存在（已被重试或删除）。', uptime: '运行时间' },
  live: '有新活动：页面已更新。',
  minutesAgo: (minutes) => (minutes < 1 ? '刚刚' : minutes < 120 ? `${minutes} 分钟` : `${Math.round(minutes / 60)} 小时`),
};

/** The console's strings in a language. */
export function consoleStringsFor(locale: Locale): ConsoleStrings {
  return locale === 'zh-CN' ? zhCN : en;
}
