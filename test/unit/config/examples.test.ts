import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { repositoryRoot } from '../../fakes/run-compiled.js';

const examples = readdirSync(join(repositoryRoot, 'config', 'examples')).filter((name) => name.endsWith('.yaml'));

describe('config/examples', () => {
  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(examples)('%s is valid over config/default.yaml', (name) => {
    const loaded = loadConfig({ channels: channelConfigSections(), root: repositoryRoot, configFile: join('config', 'examples', name), environment: {} });
    expect(loaded.ok ? [] : loaded.errors).toEqual([]);
  });
});
