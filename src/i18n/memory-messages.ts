/** The strings of `/memory`, `/forget`, the Forget buttons and `/link`. */
export type MemoryMessages = {
  /** Memory is off in this deployment (`memory.enabled: false`). */
  readonly off: string;
  readonly empty: string;
  /** The facts the bot holds here, one numbered line each with its source. */
  readonly list: (lines: readonly string[]) => string;
  /** One fact as listed: its statement, who said it, when, and on which channel when not this one (a linked account). */
  readonly line: (input: { readonly number: number; readonly statement: string; readonly authorName: string; readonly date: string; readonly elsewhere?: string }) => string;
  /** The label of a fact's Forget button (Telegram). */
  readonly forgetButton: (number: number) => string;
  readonly usageForget: string;
  readonly forgotten: (count: number) => string;
  /** `/forget` also removed past exchanges (a person's message and the answer) that contain the words. */
  readonly forgottenExchanges: (count: number) => string;
  readonly nothingToForget: (words: string) => string;
  /** `/forget <number>` named a number the sender's last `/memory` list here did not show. */
  readonly noSuchNumber: (numbers: string) => string;
  /** `/memory group` (approvers, in a group): every fact of the group. */
  readonly groupList: (lines: readonly string[]) => string;
  readonly groupEmpty: string;
  /** `/memory group` or `/forget group …` by someone who is not an approver of the chat. */
  readonly groupOnlyApprovers: string;
  /** `/memory group` or `/forget group …` in a private chat. */
  readonly groupOnlyInGroups: string;
  readonly usageForgetGroup: string;
  /** A Forget button press removed the fact. */
  readonly pressForgotten: (statement: string) => string;
  /** A Forget button of a fact that is gone, or that is not the presser's to see. */
  readonly pressGone: string;
  /** A Forget button of a group fact pressed by someone who neither said it nor approves here. */
  readonly pressNotYours: string;
  /** `/link`: the code to send from the other account. */
  readonly linkCode: (input: { readonly code: string; readonly minutes: number }) => string;
  readonly linkOnlyPrivate: string;
  readonly linkInvalid: string;
  readonly linkDone: string;
};

/** English strings of `/memory`, `/forget` and `/link`. */
export const englishMemoryMessages: MemoryMessages = {
  off: 'Memory is off here: I keep only the recent conversation.',
  empty: 'I hold no facts about you or this chat here.',
  list: (lines) => ['What I remember here:', ...lines, '', 'Press Forget under a fact, or send /forget <number> (as listed) or /forget <words>.'].join('\n'),
  line: ({ number, statement, authorName, date, elsewhere }) => `${number}. ${statement} (from ${authorName}, ${date}${elsewhere === undefined ? '' : `, on ${elsewhere}`})`,
  forgetButton: (number) => `🗑 Forget ${number}`,
  usageForget: 'Usage: /forget <words>, e.g. /forget home city; or /forget <number> from your last /memory list',
  forgotten: (count) => (count === 1 ? 'Forgotten: 1 fact.' : `Forgotten: ${count} facts.`),
  forgottenExchanges: (count) => (count === 1 ? 'Forgotten: 1 past exchange.' : `Forgotten: ${count} past exchanges.`),
  nothingToForget: (words) => `I hold no fact here that contains "${words}".`,
  noSuchNumber: (numbers) => `Your last /memory list here has no fact numbered ${numbers}. Send /memory to see the numbers again.`,
  groupList: (lines) => ["This group's memory (every member's group facts):", ...lines, '', 'Press Forget under a fact, send /forget group <words>, or /forget group all to clear it.'].join('\n'),
  groupEmpty: 'I hold no facts about this group.',
  groupOnlyApprovers: "Only an approver of this chat can see or clear the group's memory.",
  groupOnlyInGroups: "Send this in the group whose memory you mean: a group's facts are never shown in a private chat.",
  usageForgetGroup: 'Usage: /forget group <words>, or /forget group all to clear the whole group memory',
  pressForgotten: (statement) => `Forgotten: ${statement}`,
  pressGone: 'That fact is already gone, or is not yours to forget.',
  pressNotYours: 'Only the person who said it or an approver can forget this group fact.',
  linkCode: ({ code, minutes }) => `Your link code: ${code}\nWithin ${minutes} minutes, send /link ${code} to me from your other account (another channel or app). It works once; both accounts then share what I remember about you.`,
  linkOnlyPrivate: 'Send /link in a private chat with me: a link code must not be seen by others.',
  linkInvalid: 'That link code is unknown, already used or expired. Send /link from your other account for a new one.',
  linkDone: 'Linked: this account and the one that asked for the code now share what I remember about you.',
};

/** Chinese strings of `/memory`, `/forget` and `/link`. */
export const chineseMemoryMessages: MemoryMessages = {
  off: '这里没有开启记忆：我只保留最近的对话。',
  empty: '在这里我没有记住关于你或这个聊天的任何事实。',
  list: (lines) => ['我在这里记住的内容：', ...lines, '', '点击事实下方的“忘记”按钮，或发送 /forget <编号>（按列表）或 /forget <关键词>。'].join('\n'),
  line: ({ number, statement, authorName, date, elsewhere }) => `${number}. ${statement}（来自 ${authorName}，${date}${elsewhere === undefined ? '' : `，在 ${elsewhere}`}）`,
  forgetButton: (number) => `🗑 忘记 ${number}`,
  usageForget: '用法：/forget <关键词>，例如 /forget 家乡；或 /forget <编号>（来自你最近一次 /memory 列表）',
  forgotten: (count) => `已忘记 ${count} 条事实。`,
  forgottenExchanges: (count) => `已忘记 ${count} 段过去的对话。`,
  nothingToForget: (words) => `这里没有包含“${words}”的事实。`,
  noSuchNumber: (numbers) => `你最近一次在这里的 /memory 列表中没有编号 ${numbers}。发送 /memory 重新查看编号。`,
  groupList: (lines) => ['本群的记忆（所有成员的群事实）：', ...lines, '', '点击事实下方的“忘记”按钮，发送 /forget group <关键词>，或 /forget group all 清空。'].join('\n'),
  groupEmpty: '我没有记住关于本群的任何事实。',
  groupOnlyApprovers: '只有本聊天的审批人可以查看或清空群记忆。',
  groupOnlyInGroups: '请在对应的群里发送：群的事实从不在私聊中显示。',
  usageForgetGroup: '用法：/forget group <关键词>，或 /forget group all 清空整个群记忆',
  pressForgotten: (statement) => `已忘记：${statement}`,
  pressGone: '这条事实已不存在，或不属于你。',
  pressNotYours: '只有说出这条群事实的人或审批人可以忘记它。',
  linkCode: ({ code, minutes }) => `你的关联码：${code}\n请在 ${minutes} 分钟内用你的另一个账号（其他渠道或应用）向我发送 /link ${code}。关联码只能用一次；之后两个账号共享我记住的关于你的内容。`,
  linkOnlyPrivate: '请在与我的私聊中发送 /link：关联码不能让别人看到。',
  linkInvalid: '这个关联码不存在、已被使用或已过期。请用另一个账号发送 /link 获取新的关联码。',
  linkDone: '已关联：这个账号和申请关联码的账号现在共享我记住的关于你的内容。',
};
