import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import type { AppMode } from '../../src/app/create-app.js';
import type { DoctorLine } from '../../src/doctor/doctor-line.js';
import type { Config } from '../../src/config/config-schema.js';
import type { ContractApp } from './start-contract-app.js';

/**
 * What a channel gives the channel contract (channel-contract.ts): how to boot its platform and app, how a person
 * talks through it, and what it declares it cannot do. A new channel writes one of these and nothing else.
 */
export type ChannelHarness = {
  /** The channel's name, as its adapter gives it. */
  readonly channelName: string;
  /**
   * The configured secret the channel holds (bot token, signing secret), which must never reach a log line or the
   * audit file; `none` for a channel that holds no secret of its own (the model's key is checked for every channel).
   */
  readonly secret: { readonly value: string } | { readonly none: string };
  /** The doctor's lines for a config: the hook the merger re-points when doctor checks become adapter contributions. */
  doctorLines(config: Config): Promise<readonly DoctorLine[]>;
  /** Starts the platform side (emulator, mock world, HTTP client) for one contract case; it outlives app restarts. */
  startPlatform(): Promise<ChannelPlatform>;
};

/** How the app is booted for this channel; asked again at every start, a restart included. */
export type ContractAppSetup = {
  readonly mode: AppMode;
  /** Variables as `npm start` reads them (TELEGRAM_BOT_TOKEN, WEBHOOK_SECRET, ...). */
  readonly environment: Readonly<Record<string, string>>;
  /** The channels to offer (default the built-in ones), e.g. WeChat over a mock puppet. */
  readonly channels?: readonly ChannelAdapter[];
};

/** Something a person sent through the platform, as the harness needs it to deliver it again. */
export type SentMessage = { readonly text: string; readonly platformId: string };

/** One thing the bot showed in the user's chat (a message, an approval card, what the terminal printed), edits applied. */
export type BotMessage = { readonly platformId: string; readonly text: string };

/** Who may write: an allow list with a stranger to try, or one person only (the terminal) and why. */
export type StrangerAccess =
  | { readonly kind: 'allow-list'; sendAsStranger(text: string): Promise<void> }
  | { readonly kind: 'one-person'; readonly reason: string };

/** How an approval card is decided here: a button pressed through the platform, a numbered reply, or no surface at all. */
export type ApprovalDecision =
  | { readonly style: 'buttons'; pressApprove(card: BotMessage): Promise<void> }
  | { readonly style: 'numbered' }
  | { readonly style: 'none'; readonly reason: string };

/** Whether the platform delivers a message again after a restart (Telegram's unacknowledged updates, a retried delivery id). */
export type Redelivery = { readonly kind: 'redelivers'; deliverAgain(message: SentMessage): Promise<void> } | { readonly kind: 'never'; readonly reason: string };

/** A running platform, as the people on it see the bot. */
export type ChannelPlatform = {
  /** How to boot the app now, asked once per start (a restart may need a fresh mock world). */
  appSetup(): ContractAppSetup;
  /** Called once the app has started (log the bot in, find the gateway's port, attach to the terminal). */
  connected(started: ContractApp): Promise<void>;
  /** The allowed user writes `text` in their chat. */
  sendAsUser(text: string): Promise<SentMessage>;
  readonly access: StrangerAccess;
  readonly approvals: ApprovalDecision;
  readonly redelivery: Redelivery;
  /** Everything the bot showed in the user's chat, over every app start of this case, oldest first. */
  botMessages(): readonly BotMessage[];
  stop(): Promise<void>;
};
