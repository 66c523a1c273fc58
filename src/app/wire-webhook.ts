import type { ChannelContext, WiredChannel } from './channel-context.js';

/** Turns the webhook channel on when configured (built in its own issue). */
export async function wireWebhook(_context: ChannelContext): Promise<WiredChannel> {
  return { on: false, name: 'webhook', reason: 'not built yet' };
}
