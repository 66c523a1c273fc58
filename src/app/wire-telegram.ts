import type { ChannelContext, WiredChannel } from './channel-context.js';

/** Turns the telegram channel on when configured (built in its own issue). */
export async function wireTelegram(_context: ChannelContext): Promise<WiredChannel> {
  return { on: false, name: 'telegram', reason: 'not built yet' };
}
