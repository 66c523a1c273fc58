import type { ChannelConfigSection } from '../config/channel-config-section.js';
import type { Config } from '../config/config-schema.js';
import type { ChannelDoctor } from '../doctor/channel-doctor.js';
import type { ChannelClusterNeeds, ChannelLimits } from '../events/channel-limits.js';
import type { Locale } from '../i18n/messages.js';
import type { ToolSelection } from '../config/config-schema.js';
import type { ChannelContext, WiredChannel } from './channel-context.js';

/** How the app runs: `server` starts every configured channel; `chat` only the terminal (and schedules). */
export type AppMode = 'server' | 'chat';

/** How people decide approval cards in a channel. */
export type ApprovalSurface = {
  /** `buttons`: the card carries buttons; `numbered`: it is answered with 1, 2 or 3. */
  readonly style: 'buttons' | 'numbered';
  /** User ids that may decide what is asked here; empty: the requester alone. */
  readonly approvers: readonly string[];
  /** A card can be sent to an approver's private chat by their user id (`approvals.route: approvers`, unattended turns). */
  readonly reachesApproversByUserId: boolean;
};

/** A caller's own tool selection and budget (a channel's key for another system). */
export type CallerScope = {
  readonly tools: Partial<ToolSelection>;
  readonly budget?: NonNullable<Config['budgets']['job']>;
};

/** What a channel declares about itself, read from config: the core asks these instead of naming channels. */
export type ChannelTraits = {
  readonly locale: Locale;
  /** It shows answers as they are written (`reply` events of kind `progress`). */
  readonly streams: boolean;
  /** Present where people decide cards; absent for machine channels (webhook, cron). */
  readonly approvals?: ApprovalSurface;
  /** Its own tool selection (`channels.<name>.tools`), when it has one. */
  readonly tools?: Partial<ToolSelection>;
  /**
   * Its callers' own tools and budgets, by scope name (`<channel>:<caller>`, e.g. an A2A key's): an event naming a scope
   * (`toolScope`) runs with its tools, and its model calls count as the job of that name against its budget.
   */
  readonly callerScopes?: Readonly<Record<string, CallerScope>>;
  /** It serves routes its platform reaches from outside (a webhook mode): the HTTP gateway is then public. */
  readonly publicRoutes?: boolean;
  /** Its platform's limits: message length, download size, when the bot may write first (absent: none beyond `media`, any time). */
  readonly limits?: ChannelLimits;
  /** What it needs in cluster mode, when it needs anything (a leader role, sends handed to the holder). */
  readonly cluster?: ChannelClusterNeeds;
};

/** A channel as the composition root sees it: a name, its traits, and how to build it. One per channel folder. */
export type ChannelAdapter = {
  readonly name: string;
  /** The modes it runs in. */
  readonly modes: readonly AppMode[];
  /** Its config section `channels.<name>` (schema, environment variables, secrets); absent for a channel with no settings. */
  readonly configSection?: ChannelConfigSection;
  /** How to turn it on, for the line `npm start` prints when no chat channel is on: `set TELEGRAM_BOT_TOKEN (see README)`. */
  readonly setupHint?: string;
  /** Its lines in `npm run doctor`, and whether the config turns it on. */
  readonly doctor?: ChannelDoctor;
  traits(config: Config): ChannelTraits;
  /** Builds the channel from the context, or says why it is off. */
  wire(context: ChannelContext): Promise<WiredChannel>;
};
