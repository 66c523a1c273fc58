/** What the approval reviewer may answer about one call. */
export type ReviewerDecision = 'approve' | 'deny' | 'escalate';

/** Why the verdict is what it is: the reviewer's own answer, or a failure that escalates to a person. */
export type ReviewerCause = 'answer' | 'unparsable' | 'timeout' | 'unavailable';

/** The reviewer's verdict on one call, with a one-line reason and the model that gave it. */
export type ReviewerVerdict = {
  readonly decision: ReviewerDecision;
  readonly reason: string;
  readonly cause: ReviewerCause;
  readonly model: string;
};
