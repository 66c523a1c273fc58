import type { Config } from '../../config/config-schema.js';
import type { ToolScope } from '../../doctor/describe-tool-sets.js';
import type { ChannelAdapter } from '../../channel/channel-adapter.js';

/** The channels the config turns on (as their doctors say), each with its own tool selection, then scheduled turns (the global one). */
export function toolScopes(config: Config, adapters: readonly ChannelAdapter[]): ToolScope[] {
  const configured = adapters.filter((adapter) => adapter.doctor?.isConfigured(config) === true);
  return [
    ...configured.flatMap((adapter) => {
      const traits = adapter.traits(config);
      return [{ name: adapter.name, channel: traits.tools }, ...Object.entries(traits.callerScopes ?? {}).map(([name, caller]) => ({ name, channel: caller.tools }))];
    }),
    { name: 'schedules' },
  ];
}
