import type { ChannelAdapter } from '../channel/channel-adapter.js';

/** The line `npm start` prints when no chat channel is on: each server channel's own way to turn it on, then the terminal. Pure. */
export function noChatChannelHint(adapters: readonly ChannelAdapter[]): string {
  const ways = adapters.filter((adapter) => adapter.modes.includes('server')).flatMap((adapter) => (adapter.setupHint === undefined ? [] : [adapter.setupHint]));
  return `No chat channel is on: ${[...ways, 'or talk to the agent in this terminal with npm run chat'].join(', ')}.`;
}
