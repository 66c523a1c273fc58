import { EchoError } from '../errors/echo-error.js';
import type { ChannelAdapter } from '../channel/channel-adapter.js';
import type { WiredChannel } from '../channel/channel-context.js';

/**
 * Refuses a channel list where two adapters share a name, or one takes a name the core reserves (the scheduler's):
 * their replies, sessions and routes would collide.
 */
export function assertDistinctChannelNames(adapters: readonly ChannelAdapter[], reserved: readonly string[] = []): void {
  for (const adapter of adapters) {
    if (reserved.includes(adapter.name)) {
      throw new EchoError('channel-name-duplicate', `The channel adapter "${adapter.name}" takes a name the core keeps for itself (${reserved.join(', ')}); give the channel another name.`);
    }
  }
  const seen = new Set<string>();
  for (const adapter of adapters) {
    if (seen.has(adapter.name)) {
      throw new EchoError('channel-name-duplicate', `Two channel adapters are both named "${adapter.name}"; every channel needs a name of its own.`);
    }
    seen.add(adapter.name);
  }
}

/** Refuses a wired channel that reports a name other than its adapter's: replies addressed to it would find no channel. */
export function assertWiredAsNamed(adapter: ChannelAdapter, wired: WiredChannel): void {
  const reported = wired.on ? wired.channel.name : wired.name;
  if (reported !== adapter.name) {
    throw new EchoError(
      'channel-name-mismatch',
      `The channel adapter "${adapter.name}" wired a channel named "${reported}"; a channel must use the name its adapter hands it (context.channelName).`,
    );
  }
}
