import type { Config } from '../config/config-schema.js';

/** A channel's own tool selection (`channels.<name>.tools`), when it has one; the terminal and cron use the global one. */
export function channelToolSelection(config: Config, channel: string): Config['channels']['telegram']['tools'] {
  switch (channel) {
    case 'telegram':
    case 'wechat':
    case 'webhook':
      return config.channels[channel].tools;
    default:
      return undefined;
  }
}
