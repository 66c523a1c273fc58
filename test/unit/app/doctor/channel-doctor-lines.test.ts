import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { builtinChannels } from '../../../../src/app/builtin-channels.js';
import type { ChannelAdapter } from '../../../../src/channel/channel-adapter.js';
import { parseArguments } from '../../../../src/app/parse-arguments.js';
import { runDoctor } from '../../../../src/app/run-doctor.js';
import { createChannelConfigSection } from '../../../../src/config/channel-config-section.js';
import { optionalText } from '../../../../src/config/comma-list.js';
import { doctorLine } from '../../../../src/doctor/doctor-line.js';
import { createTemporaryFolder } from '../../registry/registry-fixtures.js';

const tcpConfig = createChannelConfigSection({
  name: 'tcp',
  schema: z.strictObject({ sharedKey: optionalText.describe('Key every client sends first.') }),
  environment: { sharedKey: 'TCP_SHARED_KEY' },
  secrets: ['sharedKey'],
});

/** A channel the core has never heard of: its doctor line names its key (the value must never show). */
const tcpAdapter: ChannelAdapter = {
  name: tcpConfig.name,
  modes: ['server'],
  configSection: tcpConfig,
  doctor: {
    isConfigured: (config) => tcpConfig.read(config).sharedKey !== undefined,
    check: async ({ config, channelName }) => [doctorLine('ok', channelName, `listening, key ${tcpConfig.read(config).sharedKey} set in TCP_SHARED_KEY`)],
  },
  traits: (config) => ({ locale: config.agent.locale, streams: false, tools: { profile: 'minimal' } }),
  wire: async (context) => ({ on: false, name: context.channelName, reason: 'not for this test' }),
};

const folders: ReturnType<typeof createTemporaryFolder>[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  while (folders.length > 0) folders.pop()?.remove();
});

describe('npm run doctor asks the adapters', () => {
  it("prints a new channel's own line and its tool set, with its secret masked, without a core edit", async () => {
    const folder = createTemporaryFolder('doctor-tcp');
    folders.push(folder);
    vi.stubEnv('ECHO_DATA_DIR', folder.path);
    vi.stubEnv('ECHO_STORAGE_URL', '');
    vi.stubEnv('TCP_SHARED_KEY', 'tcp-shared-key-4711');
    let written = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written += String(chunk);
      return true;
    });
    await runDoctor(parseArguments(['doctor']), [...builtinChannels, tcpAdapter]);
    expect(written).toMatch(/✓ tcp +listening, key \*\*\* set in TCP_SHARED_KEY/);
    expect(written).toContain('tcp (minimal): ');
    expect(written).not.toContain('tcp-shared-key-4711');
  });
});
