import type { Locale, Messages } from './messages.js';

/** A channel's own user-facing strings, in every language the core speaks. */
export type ChannelStrings<Own extends object> = Readonly<Record<Locale, Own>>;

/** The core catalogue a channel was handed (in its locale) with the channel's own strings in the same locale. Pure. */
export function withChannelStrings<Own extends object>(core: Messages, own: ChannelStrings<Own>): Messages & Own {
  return { ...core, ...own[core.locale] };
}
