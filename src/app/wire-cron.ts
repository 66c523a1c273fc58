import type { ChannelContext } from './channel-context.js';
import type { WiredScheduler } from './wired-parts.js';

/** The scheduler and the cron channel (built in its own issue). */
export async function wireCron(_context: ChannelContext): Promise<WiredScheduler> {
  const unavailable = { ok: false as const, error: 'The scheduler is not available yet.' };
  return {
    wired: { on: false, name: 'cron', reason: 'not built yet' },
    scheduler: {
      create: async () => unavailable,
      list: async () => [],
      cancel: async () => unavailable,
      validate: () => unavailable,
    },
  };
}
