import type { ChannelContext, WiredChannel } from './channel-context.js';

/** Turns the wechat channel on when configured (built in its own issue). */
export async function wireWechat(_context: ChannelContext): Promise<WiredChannel> {
  return { on: false, name: 'wechat', reason: 'not built yet' };
}
