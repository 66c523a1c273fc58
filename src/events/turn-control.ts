/** A request to stop the work of one session: its running turn and the turns it left waiting on a person. */
export type TurnCancelRequest = {
  readonly sessionKey: string;
  /** Who asked, as people read it on the cards ("caller", a person's name); audited. */
  readonly by: string;
};

/** What a cancel stopped: running turns aborted in this process, and the ids of approvals and questions closed. */
export type TurnCancellation = {
  readonly aborted: number;
  readonly closed: readonly string[];
};

/**
 * How a channel stops the work it started (a task its caller cancelled), in any channel: the turn running in this
 * process is aborted as on a turn timeout, and a suspended turn is closed for good (its card edited as cancelled, a
 * later press refused, no resumption even after a restart).
 */
export interface TurnControl {
  cancel(request: TurnCancelRequest): Promise<TurnCancellation>;
}
