import { chineseConsoleMessages, type ConsoleMessages, englishConsoleMessages } from './console-messages.js';
import type { Risk } from '../events/risk.js';
import { chineseElicitationMessages, type ElicitationMessages, englishElicitationMessages } from './elicitation-messages.js';
import { type BudgetMessages, chineseBudgetMessages, englishBudgetMessages } from './budget-messages.js';
import { chineseParkedMessages, englishParkedMessages, type ParkedMessages } from './parked-messages.js';
import { chineseMemoryMessages, englishMemoryMessages, type MemoryMessages } from './memory-messages.js';

/** A language of user-facing text. */
export type Locale = 'en' | 'zh-CN';

/** Every user-facing string of the runtime; a channel adds its own strings (its folder's `<name>-strings.ts`) with `withChannelStrings`. */
export type Messages = {
  /** The language these strings are in. */
  readonly locale: Locale;
  readonly busy: string;
  /** The model could not be reached; `failureKind` is the ModelFailure kind (rate-limited, auth, network, timeout, server, ...). */
  readonly modelUnavailable: (failureKind: string) => string;
  /** The store failed during a turn: nothing is lost, the message runs again once the store answers. */
  readonly storeUnavailable: string;
  /** A message over the per-message limit was cut before the model read it. */
  readonly messageCut: (keptCharacters: number) => string;
  /** A decision could not be saved, so it was not taken. */
  readonly decisionNotSaved: string;
  readonly turnTimedOut: string;
  readonly sessionReset: string;
  readonly help: (botName: string) => string;
  readonly greeting: (botName: string) => string;
  readonly approvalTitle: string;
  readonly approvalWhat: string;
  readonly approvalArguments: string;
  readonly approvalRisk: string;
  readonly approvalRequestedBy: string;
  readonly approvalExpires: string;
  /** A risk level (read_only, write, exec, dangerous) as people read it. */
  readonly riskLevel: (risk: Risk) => string;
  readonly approvalExplanationLabel: string;
  /** The approval reviewer's reason on a card it sent to a person. */
  readonly approvalReviewerLabel: string;
  /** A card raised inside a sub-task: the chain (the person's turn's child first) and the tools the sub-task may use. */
  readonly approvalViaSubTask: (chain: readonly string[], tools: readonly string[]) => string;
  /** Shown while a turn waits for a sub-task it started (the delegate tool): its chain, its tools, how to stop it. */
  readonly subTaskWaiting: (chain: readonly string[], tools: readonly string[]) => string;
  /** The line shown when the approval reviewer settled a call (approvals.reviewerNotice: chat). */
  readonly reviewerApproved: (reason: string) => string;
  readonly reviewerDenied: (reason: string) => string;
  readonly reviewerDecisionsHeader: string;
  /** `/smart on|off`: the person's choice was saved, refused, or what the config allows. */
  readonly smartSwitched: (on: boolean) => string;
  readonly smartNotAllowed: (mode: string) => string;
  readonly smartOnlyApprovers: string;
  readonly usageSmart: (current: boolean) => string;
  readonly approvalId: string;
  readonly approveOnce: string;
  readonly approveSession: string;
  readonly approveAlways: string;
  readonly deny: string;
  readonly approvedBy: (who: string, time: string, scope: string) => string;
  readonly deniedBy: (who: string, time: string) => string;
  readonly expired: string;
  readonly superseded: string;
  /** The card of a request its requester withdrew (an A2A task cancelled): nothing ran, and a later press changes nothing. */
  readonly cancelledBy: (who: string, time: string) => string;
  readonly onlyApprovers: string;
  readonly alreadyDecided: (outcome: string) => string;
  readonly approvalNotFound: (id: string) => string;
  readonly choiceNotOffered: string;
  readonly noPendingApprovals: string;
  readonly pendingApprovalsHeader: string;
  readonly grantsHeader: string;
  readonly grantRevoked: (summary: string) => string;
  readonly grantNotFound: (number: number) => string;
  readonly usageApprove: string;
  readonly usageDeny: string;
  readonly numberedReplyHint: (id: string) => string;
  /** Several cards wait for this person in this chat: a bare number would have to guess, so name the card. */
  readonly numberedReplyAmbiguous: (ids: readonly string[]) => string;
  readonly questionHint: string;
  readonly answerRecorded: (option: string) => string;
  readonly questionNotFound: string;
  readonly questionNotYours: string;
  readonly cancelled: string;
  readonly nothingToCancel: string;
  readonly unknownCommand: (command: string) => string;
  readonly unsupportedMedia: string;
  /** A file over a download limit: said in the chat, not only in a log. `platform`: the platform itself refuses bots files this big. */
  readonly attachmentTooLarge: (name: string, limit: string, platform: boolean) => string;
  readonly attachmentNotDownloaded: (name: string) => string;
  /** A PDF refused by a limit of `media.pdf` or whose reader process died; `limit` is the figure of that limit (empty for a crash). */
  readonly pdfNotRead: (name: string, reason: 'too-large' | 'timeout' | 'too-many-pages' | 'crashed', limit: string) => string;
  /** A voice note with no transcription configured; the person should type instead. */
  readonly voiceNotTranscribed: string;
  readonly transcriptionFailed: string;
  /** Said once per conversation when the model is text-only and an image arrives. */
  readonly imagesNotSeen: string;
  /** The terminal's label for a file the agent sent (it prints the path). */
  readonly fileSentLabel: string;
  readonly notAllowed: string;
  /** Usage and budgets: the soft-limit card, the hard limit, /usage and /budget. */
  readonly budget: BudgetMessages;
  /** Turns set aside after repeated interruptions: the one-sentence notice and `/parked`. */
  readonly parked: ParkedMessages;
  /** An MCP server asking the person for input: its questions, reply words and reasons. */
  readonly elicitation: ElicitationMessages;
  readonly memory: MemoryMessages;
  /** The web console: `/console` answers and the card's mark for decisions made there. */
  readonly console: ConsoleMessages;
};

/** Why the model could not be reached, by ModelFailure kind, as the person reads it. */
const modelFailureReasons: Readonly<Record<Locale, Readonly<Record<string, string>>>> = {
  en: { 'rate-limited': 'it is rate limiting us', auth: 'the API key was refused', network: 'it did not answer', timeout: 'it did not answer', server: 'it had a server error', budget: 'a budget is used up' },
  'zh-CN': { 'rate-limited': '请求过于频繁，被限流', auth: 'API 密钥被拒绝', network: '没有响应', timeout: '没有响应', server: '服务器出错', budget: '预算已用完' },
};

const en: Messages = {
  locale: 'en',
  busy: 'I am busy right now and could not take your message. Please send it again in a moment.',
  modelUnavailable: (failureKind) => `I could not reach the model (${modelFailureReasons.en[failureKind] ?? failureKind}). Please try again in a moment.`,
  storeUnavailable: 'I could not save this conversation: my storage is not answering. Your message is kept, and I will answer it once the storage is back.',
  messageCut: (kept) => `Your message was very long: I read only the first ${kept} characters of it.`,
  decisionNotSaved: 'Your decision could not be saved (my storage is not answering), so nothing was decided. Please press again in a moment.',
  turnTimedOut: 'That took too long, so I stopped. Please try again, perhaps with a smaller request.',
  sessionReset: 'Started a fresh conversation. Earlier messages are forgotten.',
  help: (botName) =>
    [
      `${botName} commands:`,
      '/new: start a fresh conversation',
      '/approvals: list approvals you can decide, and your standing grants',
      '/approve <id> [once|session|always]: approve a pending action',
      '/deny <id> [reason]: refuse a pending action',
      '/approvals revoke <n>: remove a standing grant',
      '/smart on|off: let the reviewer settle obvious commands in your chats, or not',
      '/cancel: cancel the question or approval waiting in this chat',
      '/usage: tokens and cost of this chat today and this month (approvers: everyone)',
      '/budget: the budgets of this chat; approvers raise one with /budget raise',
      '/parked: approvers list, retry or drop messages set aside after repeated failures',
      '/memory: what I remember about you and this chat (when memory is on)',
      '/forget <words> or <number>: forget remembered facts; approvers: /memory group, /forget group all',
      '/link: share what I remember about you across your accounts on other channels (one-time code)',
      '/console: a one-time link to the web console (when it is on)',
      '/help: this list',
    ].join('\n'),
  greeting: (botName) => `Hi, I am ${botName}. Ask me anything, or ask me to remind you of something. Risky actions wait for your approval. /help lists the commands.`,
  approvalTitle: 'Approval needed',
  approvalWhat: 'What',
  approvalArguments: 'Arguments',
  approvalRisk: 'Risk',
  approvalRequestedBy: 'Asked by',
  approvalExpires: 'Expires',
  riskLevel: (risk) => ({ read_only: 'read only', write: 'write', exec: 'runs commands', dangerous: 'dangerous' })[risk],
  approvalExplanationLabel: "Assistant's explanation",
  approvalReviewerLabel: 'Reviewer',
  approvalViaSubTask: (chain, tools) =>
    `Via ${[...chain].reverse().map((name) => `sub-task ${name}`).join(' of ')} of your request. The sub-task may use: ${tools.length > 0 ? tools.join(', ') : 'no tools'}.`,
  subTaskWaiting: (chain, tools) =>
    `⏳ Working on ${[...chain].reverse().map((name) => `sub-task ${name}`).join(' of ')} of your request (it may use: ${tools.length > 0 ? tools.join(', ') : 'no tools'}). Its approvals come here; deny one to stop it. The answer follows when it is done.`,
  reviewerApproved: (reason) => `✔ auto-approved by the reviewer: ${reason}`,
  reviewerDenied: (reason) => `✖ denied by the reviewer: ${reason}`,
  reviewerDecisionsHeader: 'Recent reviewer decisions:',
  smartSwitched: (on) => (on ? 'Smart approvals on: the reviewer settles obvious commands in your chats and asks you about the rest.' : 'Smart approvals off: you decide every action that needs approval.'),
  smartNotAllowed: (mode) => `Smart approvals are not allowed here (approvals.mode is ${mode}).`,
  smartOnlyApprovers: 'Only approvers can switch smart approvals.',
  usageSmart: (current) => `Usage: /smart on|off (now ${current ? 'on' : 'off'})`,
  approvalId: 'Id',
  approveOnce: 'Approve',
  approveSession: 'Allow for this chat',
  approveAlways: 'Always',
  deny: 'Deny',
  approvedBy: (who, time, scope) => `Approved by ${who} at ${time}${scope === 'once' ? '' : scope === 'session' ? ' (for this chat)' : ' (always)'}`,
  deniedBy: (who, time) => `Denied by ${who} at ${time}`,
  expired: 'Expired: nobody decided in time',
  superseded: 'Superseded',
  cancelledBy: (who, time) => `Cancelled by ${who} at ${time}: the request was withdrawn; nothing was run`,
  onlyApprovers: 'Only approvers can decide this.',
  alreadyDecided: (outcome) => `Already decided: ${outcome}.`,
  approvalNotFound: (id) => `There is no approval with id ${id}.`,
  choiceNotOffered: 'That choice is not offered for this action.',
  noPendingApprovals: 'Nothing is waiting for your approval.',
  pendingApprovalsHeader: 'Waiting for your decision:',
  grantsHeader: 'Your standing grants (/approvals revoke <n> removes one):',
  grantRevoked: (summary) => `Removed the grant: ${summary}`,
  grantNotFound: (number) => `You have no grant number ${number}.`,
  usageApprove: 'Usage: /approve <id> [once|session|always]',
  usageDeny: 'Usage: /deny <id> [reason]',
  numberedReplyHint: (id) => `Reply 1 approve once · 2 always allow · 3 deny (id ${id})`,
  numberedReplyAmbiguous: (ids) => `${ids.length} approvals are waiting for you here; reply with the number and the id, for example "1 ${ids[0] ?? ''}". Waiting: ${ids.join(', ')}.`,
  questionHint: 'Reply with the number of your answer.',
  answerRecorded: (option) => `Answer: ${option}`,
  questionNotFound: 'That question is no longer open.',
  questionNotYours: 'Only the person who was asked can answer this.',
  cancelled: 'Cancelled.',
  nothingToCancel: 'Nothing is waiting in this chat.',
  unknownCommand: (command) => `Unknown command ${command}. /help lists the commands.`,
  unsupportedMedia: "I can't read this kind of message yet. Please send text.",
  attachmentTooLarge: (name, limit, platform) =>
    platform ? `I can't open "${name}": bots cannot download files over ${limit}. Please send a smaller file or a link.` : `I can't open "${name}": it is over the ${limit} limit.`,
  attachmentNotDownloaded: (name) => `I couldn't download "${name}". Please send it again.`,
  pdfNotRead: (name, reason, limit) => {
    if (reason === 'too-large') return `The PDF "${name}" could not be read: it expands past the ${limit} memory limit.`;
    if (reason === 'timeout') return `The PDF "${name}" could not be read: reading it took longer than ${limit}.`;
    if (reason === 'too-many-pages') return `The PDF "${name}" could not be read: it has more than ${limit} pages.`;
    return `The PDF "${name}" could not be read: the PDF reader stopped on it.`;
  },
  voiceNotTranscribed: "I can't listen to voice messages here: no transcription service is set up. Please type your message.",
  transcriptionFailed: "I couldn't transcribe your voice message. Please try again or type it.",
  fileSentLabel: 'file sent',
  imagesNotSeen: 'The model I use cannot see images, so I only know that you sent one. Please describe it in words if it matters.',
  notAllowed: 'You are not allowed to use this bot.',
  budget: englishBudgetMessages,
  parked: englishParkedMessages,
  elicitation: englishElicitationMessages,
  memory: englishMemoryMessages,
  console: englishConsoleMessages,
};

const zhCN: Messages = {
  locale: 'zh-CN',
  busy: '我现在很忙，没能接收你的消息。请稍后再发一次。',
  modelUnavailable: (failureKind) => `无法连接模型（${modelFailureReasons['zh-CN'][failureKind] ?? '未知错误'}）。请稍后再试。`,
  storeUnavailable: '我无法保存这次对话：存储没有响应。你的消息已保留，存储恢复后我会回答。',
  messageCut: (kept) => `你的消息太长了：我只读了前 ${kept} 个字符。`,
  decisionNotSaved: '你的决定没能保存（存储没有响应），所以没有生效。请稍后再按一次。',
  turnTimedOut: '处理时间太长，已停止。请再试一次，或把请求拆小一些。',
  sessionReset: '已开始新的对话，之前的消息已清除。',
  help: (botName) =>
    [
      `${botName} 命令：`,
      '/new：开始新的对话',
      '/approvals：列出你可以审批的请求和已有授权',
      '/approve <id> [once|session|always]：批准',
      '/deny <id> [原因]：拒绝',
      '/approvals revoke <n>：撤销一条授权',
      '/smart on|off：开启或关闭智能审批',
      '/cancel：取消本会话中等待的问题或审批',
      '/usage：本聊天今天和本月的令牌与费用（审批人可看所有人）',
      '/budget：本聊天的预算；审批人可用 /budget raise 提高',
      '/parked：审批人查看、重试或删除多次失败后被搁置的消息',
      '/memory：我记住的关于你和这个聊天的事实（开启记忆时）',
      '/forget <关键词> 或 <编号>：忘记事实；审批人：/memory group、/forget group all',
      '/link：用一次性关联码在你的其他渠道账号之间共享记忆',
      '/console：获取网页控制台的一次性登录链接（开启时）',
      '/help：显示本列表',
    ].join('\n'),
  greeting: (botName) => `你好，我是 ${botName}。有风险的操作会先请你批准。/help 查看命令。`,
  approvalTitle: '需要批准',
  approvalWhat: '操作',
  approvalArguments: '参数',
  approvalRisk: '风险',
  approvalRequestedBy: '请求人',
  approvalExpires: '过期时间',
  riskLevel: (risk) => ({ read_only: '只读', write: '写入', exec: '执行命令', dangerous: '危险' })[risk],
  approvalExplanationLabel: '助手的说明',
  approvalReviewerLabel: '审查模型',
  approvalViaSubTask: (chain, tools) => `来自你的请求的${chain.map((name) => `子任务 ${name}`).join(' 的')}。该子任务可用的工具：${tools.length > 0 ? tools.join('、') : '无'}。`,
  subTaskWaiting: (chain, tools) =>
    `⏳ 正在处理你的请求的${chain.map((name) => `子任务 ${name}`).join(' 的')}（可用的工具：${tools.length > 0 ? tools.join('、') : '无'}）。它的审批会发到这里；拒绝即可停止它。完成后会给出回答。`,
  reviewerApproved: (reason) => `✔ 审查模型已自动批准：${reason}`,
  reviewerDenied: (reason) => `✖ 审查模型已拒绝：${reason}`,
  reviewerDecisionsHeader: '审查模型最近的决定：',
  smartSwitched: (on) => (on ? '智能审批已开启：审查模型会处理明显的命令，其余的仍会问你。' : '智能审批已关闭：所有需要批准的操作都由你决定。'),
  smartNotAllowed: (mode) => `此处不允许智能审批（approvals.mode 为 ${mode}）。`,
  smartOnlyApprovers: '只有审批人可以切换智能审批。',
  usageSmart: (current) => `用法：/smart on|off（当前${current ? '开启' : '关闭'}）`,
  approvalId: '编号',
  approveOnce: '批准一次',
  approveSession: '本会话允许',
  approveAlways: '总是允许',
  deny: '拒绝',
  approvedBy: (who, time, scope) => `${who} 于 ${time} 批准${scope === 'once' ? '' : scope === 'session' ? '（本会话）' : '（总是）'}`,
  deniedBy: (who, time) => `${who} 于 ${time} 拒绝`,
  expired: '已过期：无人及时处理',
  superseded: '已被取代',
  cancelledBy: (who, time) => `已由 ${who} 于 ${time} 取消：请求已撤回，未执行任何操作`,
  onlyApprovers: '只有审批人可以处理此请求。',
  alreadyDecided: (outcome) => `已处理：${outcome}。`,
  approvalNotFound: (id) => `没有编号为 ${id} 的审批。`,
  choiceNotOffered: '此操作不提供该选项。',
  noPendingApprovals: '没有等待你审批的请求。',
  pendingApprovalsHeader: '等待你审批：',
  grantsHeader: '你的长期授权（/approvals revoke <n> 撤销）：',
  grantRevoked: (summary) => `已撤销授权：${summary}`,
  grantNotFound: (number) => `没有第 ${number} 条授权。`,
  usageApprove: '用法：/approve <id> [once|session|always]',
  usageDeny: '用法：/deny <id> [原因]',
  numberedReplyHint: (id) => `回复 1 批准一次 · 2 总是允许 · 3 拒绝（编号 ${id}）`,
  numberedReplyAmbiguous: (ids) => `有 ${ids.length} 个待你批准的请求，请回复数字加编号，例如「1 ${ids[0] ?? ''}」。待批准：${ids.join('、')}。`,
  questionHint: '请回复选项编号。',
  answerRecorded: (option) => `回答：${option}`,
  questionNotFound: '这个问题已经关闭。',
  questionNotYours: '只有被提问的人可以回答。',
  cancelled: '已取消。',
  nothingToCancel: '本会话没有等待中的内容。',
  unknownCommand: (command) => `未知命令 ${command}。/help 查看命令。`,
  unsupportedMedia: '我暂时无法读取这类消息，请发送文字。',
  attachmentTooLarge: (name, limit, platform) =>
    platform ? `无法打开「${name}」：机器人无法下载超过 ${limit} 的文件。请发送更小的文件或链接。` : `无法打开「${name}」：文件超过了 ${limit} 的上限。`,
  attachmentNotDownloaded: (name) => `「${name}」下载失败，请重新发送。`,
  pdfNotRead: (name, reason, limit) => {
    if (reason === 'too-large') return `无法读取 PDF「${name}」：展开后超过了 ${limit} 的内存上限。`;
    if (reason === 'timeout') return `无法读取 PDF「${name}」：读取时间超过了 ${limit}。`;
    if (reason === 'too-many-pages') return `无法读取 PDF「${name}」：页数超过了 ${limit} 页。`;
    return `无法读取 PDF「${name}」：PDF 阅读进程意外终止。`;
  },
  voiceNotTranscribed: '我这里无法收听语音消息：尚未配置语音转文字服务。请发送文字。',
  transcriptionFailed: '语音消息转文字失败，请重试或直接发送文字。',
  fileSentLabel: '已发送文件',
  imagesNotSeen: '我使用的模型看不到图片，只知道你发了一张。如有需要，请用文字描述。',
  notAllowed: '你没有使用此机器人的权限。',
  budget: chineseBudgetMessages,
  parked: chineseParkedMessages,
  elicitation: chineseElicitationMessages,
  memory: chineseMemoryMessages,
  console: chineseConsoleMessages,
};

const catalogue: Readonly<Record<Locale, Messages>> = { en, 'zh-CN': zhCN };

/** The messages of a locale. */
export function messagesFor(locale: Locale): Messages {
  return catalogue[locale];
}
