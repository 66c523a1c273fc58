import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { runtimeSchema } from '../../../src/config/runtime-schema.js';

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');

describe('runtime.heapGrowthPercent', () => {
  it('is 50 when nothing sets it', () => {
    const loaded = loadConfig({ channels: channelConfigSections(), root: repositoryRoot, environment: {}, configFile: resolve(repositoryRoot, 'config', 'default.yaml') });
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    expect(loaded.config.runtime).toEqual({ heapGrowthPercent: 50 });
  });

  it('takes 0 (V8 decides) and 10 to 300', () => {
    for (const percent of [0, 10, 120, 300]) expect(runtimeSchema.parse({ heapGrowthPercent: percent })).toEqual({ heapGrowthPercent: percent });
    expect(runtimeSchema.parse({ heapGrowthPercent: '75' })).toEqual({ heapGrowthPercent: 75 });
  });

  it('refuses a factor that would collect all the time or never, and says what it takes', () => {
    for (const percent of [5, 301, -1, 12.5]) {
      const parsed = runtimeSchema.safeParse({ heapGrowthPercent: percent });
      expect(parsed.success, String(percent)).toBe(false);
    }
    expect(runtimeSchema.safeParse({ heapGrowthPercent: 5 }).error?.issues[0]?.message).toBe('0 (V8 decides), or 10 to 300');
  });

  it('refuses a misspelt key', () => {
    expect(runtimeSchema.safeParse({ heapGrowthPrecent: 50 }).success).toBe(false);
  });
});
