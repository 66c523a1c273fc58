/** The reply words of an MCP server's question (also its button labels). */
export type ElicitationWords = {
  readonly decline: string;
  readonly cancel: string;
  readonly skip: string;
  readonly accept: string;
  readonly acceptRest: string;
  readonly yes: string;
  readonly no: string;
  readonly useDefault: string;
};

/** Every user-facing string of an MCP server asking the person for input (part of Messages as `elicitation`). */
export type ElicitationMessages = {
  readonly words: ElicitationWords;
  /** The first line of every question: the server by name, and its message. */
  readonly asks: (server: string, message: string) => string;
  /** The same for another agent (a peer over A2A) that asks. */
  readonly agentAsks: (agent: string, message: string) => string;
  readonly notAccepted: (reason: string) => string;
  readonly optional: string;
  readonly defaultIs: (value: string) => string;
  readonly typeText: string;
  readonly typeNumber: string;
  readonly typeInteger: string;
  readonly typeChoices: (labels: string) => string;
  readonly orReply: (words: string) => string;
  /** The line after the last answer: what went to the server. */
  readonly sentToServer: (server: string, summary: string) => string;
  /** The same for another agent. */
  readonly sentToAgent: (agent: string, summary: string) => string;
  /** Why an answer was not accepted. */
  readonly reasons: {
    readonly replyAcceptDeclineCancel: string;
    readonly yesOrNo: string;
    readonly chooseOne: (labels: string) => string;
    readonly chooseFrom: (labels: string) => string;
    readonly number: string;
    readonly integer: string;
    readonly text: string;
    readonly minLength: (count: number) => string;
    readonly maxLength: (count: number) => string;
    readonly email: string;
    readonly uri: string;
    readonly date: string;
    readonly dateTime: string;
    readonly minimum: (value: number) => string;
    readonly maximum: (value: number) => string;
    readonly minItems: (count: number) => string;
    readonly maxItems: (count: number) => string;
  };
};

/** English. */
export const englishElicitationMessages: ElicitationMessages = {
  words: { decline: 'Decline', cancel: 'Cancel', skip: 'Skip', accept: 'Accept', acceptRest: 'Accept the rest as default', yes: 'Yes', no: 'No', useDefault: 'Use default' },
  asks: (server, message) => `The MCP server "${server}" asks: ${message}`,
  agentAsks: (agent, message) => `The agent "${agent}" asks: ${message}`,
  notAccepted: (reason) => `That answer was not accepted: ${reason}. Please answer again.`,
  optional: ' (optional)',
  defaultIs: (value) => ` (default: ${value})`,
  typeText: 'Type your answer.',
  typeNumber: 'Type your answer (a number).',
  typeInteger: 'Type your answer (a whole number).',
  typeChoices: (labels) => `Type your choices separated by commas: ${labels}.`,
  orReply: (words) => `Or reply ${words}.`,
  sentToServer: (server, summary) => `Sent to the MCP server "${server}": ${summary}`,
  sentToAgent: (agent, summary) => `Sent to the agent "${agent}": ${summary}`,
  reasons: {
    replyAcceptDeclineCancel: 'reply Accept, Decline or Cancel',
    yesOrNo: 'answer yes or no',
    chooseOne: (labels) => `choose one of ${labels}`,
    chooseFrom: (labels) => `choose from ${labels}`,
    number: 'a number',
    integer: 'a whole number',
    text: 'some text',
    minLength: (count) => `at least ${count} characters`,
    maxLength: (count) => `at most ${count} characters`,
    email: 'an email address',
    uri: 'a link (https://...)',
    date: 'a date as YYYY-MM-DD',
    dateTime: 'a date and time as YYYY-MM-DDTHH:MM:SSZ',
    minimum: (value) => `at least ${value}`,
    maximum: (value) => `at most ${value}`,
    minItems: (count) => `at least ${count} choices`,
    maxItems: (count) => `at most ${count} choices`,
  },
};

/** Simplified Chinese. */
export const chineseElicitationMessages: ElicitationMessages = {
  words: { decline: '拒绝', cancel: '取消', skip: '跳过', accept: '接受', acceptRest: '其余用默认值', yes: '是', no: '否', useDefault: '用默认值' },
  asks: (server, message) => `MCP 服务「${server}」询问：${message}`,
  agentAsks: (agent, message) => `智能体「${agent}」询问：${message}`,
  notAccepted: (reason) => `这个回答未被接受：${reason}。请重新回答。`,
  optional: '（可选）',
  defaultIs: (value) => `（默认：${value}）`,
  typeText: '请输入你的回答。',
  typeNumber: '请输入你的回答（数字）。',
  typeInteger: '请输入你的回答（整数）。',
  typeChoices: (labels) => `请输入你的选择，用逗号分隔：${labels}。`,
  orReply: (words) => `或回复 ${words}。`,
  sentToServer: (server, summary) => `已发送给 MCP 服务「${server}」：${summary}`,
  sentToAgent: (agent, summary) => `已发送给智能体「${agent}」：${summary}`,
  reasons: {
    replyAcceptDeclineCancel: '请回复 接受、拒绝 或 取消',
    yesOrNo: '请回答 是 或 否',
    chooseOne: (labels) => `请从 ${labels} 中选一个`,
    chooseFrom: (labels) => `请从 ${labels} 中选择`,
    number: '需要一个数字',
    integer: '需要一个整数',
    text: '需要一段文字',
    minLength: (count) => `至少 ${count} 个字符`,
    maxLength: (count) => `最多 ${count} 个字符`,
    email: '需要一个电子邮件地址',
    uri: '需要一个链接（https://...）',
    date: '需要日期，格式 YYYY-MM-DD',
    dateTime: '需要日期和时间，格式 YYYY-MM-DDTHH:MM:SSZ',
    minimum: (value) => `不能小于 ${value}`,
    maximum: (value) => `不能大于 ${value}`,
    minItems: (count) => `至少选 ${count} 项`,
    maxItems: (count) => `最多选 ${count} 项`,
  },
};
