import type { ApprovalChoice } from '../../src/events/approval-card.js';
import type { ChannelStrings } from '../../src/i18n/with-channel-strings.js';

/** The OpenAI-compatible channel's own user-facing strings: the card as text, and answers that are not the model's. */
export type OpenaiApiStrings = {
  readonly apiCardTitle: (approvalId: string, summary: string) => string;
  readonly apiCardTool: (input: { readonly tool: string; readonly risk: string; readonly requestedBy: string; readonly expiresAt: string }) => string;
  readonly apiCardArguments: (text: string) => string;
  readonly apiCardExplanation: (text: string) => string;
  readonly apiCardReviewer: (note: string) => string;
  /** How to decide: the numbered replies offered (`1 = approve once, …`), and the HTTP way. */
  readonly apiCardHowToDecide: (replies: string, approvalId: string) => string;
  readonly apiChoices: Readonly<Record<ApprovalChoice, string>>;
  /** The request waited past its limit; the answer comes later. */
  readonly apiStillWorking: string;
  /** A turn that ended without an answer of its own. */
  readonly apiTurnEnded: (status: string) => string;
  /** A file the agent sent, which this API does not carry. */
  readonly apiFileNotCarried: (input: { readonly name: string; readonly mediaType: string; readonly sizeBytes: number; readonly caption?: string }) => string;
};

/** The channel's strings in English and Chinese. */
export const openaiApiStrings: ChannelStrings<OpenaiApiStrings> = {
  en: {
    apiCardTitle: (approvalId, summary) => `Approval needed (${approvalId}): ${summary}`,
    apiCardTool: (input) => `Tool: ${input.tool} (risk ${input.risk}), requested by ${input.requestedBy}, expires ${input.expiresAt}.`,
    apiCardArguments: (text) => `Arguments: ${text}`,
    apiCardExplanation: (text) => `The assistant explains: ${text}`,
    apiCardReviewer: (note) => `Reviewer: ${note}`,
    apiCardHowToDecide: (replies, approvalId) => `Reply ${replies}; or POST /v1/approvals/${approvalId} with {"decision":"approve"} or {"decision":"deny"}.`,
    apiChoices: { once: 'approve once', session: 'approve for this session', always: 'always allow', deny: 'deny' },
    apiStillWorking: 'Still working on it: the answer will come with your next message in this conversation.',
    apiTurnEnded: (status) => `The turn ended (${status}).`,
    apiFileNotCarried: (input) => `The agent sent a file, ${input.name} (${input.mediaType}, ${input.sizeBytes} bytes)${input.caption ? `: ${input.caption}` : ''}; files are not carried over this API.`,
  },
  'zh-CN': {
    apiCardTitle: (approvalId, summary) => `需要审批（${approvalId}）：${summary}`,
    apiCardTool: (input) => `工具：${input.tool}（风险 ${input.risk}），由 ${input.requestedBy} 发起，${input.expiresAt} 过期。`,
    apiCardArguments: (text) => `参数：${text}`,
    apiCardExplanation: (text) => `助手的说明：${text}`,
    apiCardReviewer: (note) => `审查意见：${note}`,
    apiCardHowToDecide: (replies, approvalId) => `回复 ${replies}；或向 POST /v1/approvals/${approvalId} 发送 {"decision":"approve"} 或 {"decision":"deny"}。`,
    apiChoices: { once: '批准一次', session: '本会话内批准', always: '始终允许', deny: '拒绝' },
    apiStillWorking: '仍在处理中：答复会随你在此对话中的下一条消息一起返回。',
    apiTurnEnded: (status) => `本轮已结束（${status}）。`,
    apiFileNotCarried: (input) => `助手发送了文件 ${input.name}（${input.mediaType}，${input.sizeBytes} 字节）${input.caption ? `：${input.caption}` : ''}；此接口不传输文件。`,
  },
};
