import type { Target } from '../events/target.js';

/** Who raised a request through echo-agent's MCP server: the key's name, how cards name the caller, and the key's user. */
export type CallerIdentity = {
  readonly keyName: string;
  readonly client: string;
  readonly userId: string;
};

/** Where a caller's question stands. `expired` is derived at read time from `expiresAt`, never written. */
export type CallerQuestionStatus = 'pending' | 'answered' | 'expired';

/** A question an MCP caller asked the person in a chat (ask_person), as stored; answered once by anyone in that chat. */
export type CallerQuestion = {
  readonly id: string;
  readonly question: string;
  /** The choices offered as buttons (numbered on channels without buttons); empty for a typed answer. */
  readonly options: readonly string[];
  /** The chat it was shown in: only an answer from this chat counts. */
  readonly target: Target;
  readonly askedBy: CallerIdentity;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly status: CallerQuestionStatus;
  readonly answer?: string;
  readonly answeredBy?: string;
  readonly answeredAt?: string;
};
