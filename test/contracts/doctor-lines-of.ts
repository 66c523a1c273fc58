import { builtinChannels } from '../../src/app/builtin-channels.js';
import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import type { Config } from '../../src/config/config-schema.js';
import type { DoctorLine } from '../../src/doctor/doctor-line.js';

/** The channel lines of `npm run doctor` for a config: each adapter's own doctor contribution, as run-doctor.ts calls it. */
export async function doctorLinesOf(config: Config, adapters: readonly ChannelAdapter[] = builtinChannels): Promise<readonly DoctorLine[]> {
  const publicRoutes = adapters.some((adapter) => adapter.traits(config).publicRoutes === true);
  const lines = await Promise.all(adapters.map((adapter) => adapter.doctor?.check({ config, channelName: adapter.name, timeoutMs: 3000, publicRoutes }) ?? []));
  return lines.flat();
}
