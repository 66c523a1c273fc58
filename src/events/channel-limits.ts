/** A platform's limits and rules, declared by its channel: the core asks these instead of assuming one platform's. */
export type ChannelLimits = {
  /** Longest text one message may carry; the channel splits longer replies. */
  readonly messageChars?: number;
  /** Largest file a bot may download from the platform; absent: only `media.maxFileBytes` applies. */
  readonly downloadBytes?: number;
  /** When the bot may write without being asked: `any-time`, only within a `reply-window` after the person wrote, or `never`. */
  readonly proactiveSend: 'any-time' | 'reply-window' | 'never';
};

/** What a channel needs when several instances share PostgreSQL: a role one instance holds at a time, and whether others hand their sends to it. */
export type ChannelClusterNeeds = {
  /** The leader role one instance holds at a time (the bot's poller, the account's login). */
  readonly leaderRole: string;
  /** Sends from other instances are handed to the role's holder (only it is logged in). */
  readonly handsOffSends: boolean;
};
