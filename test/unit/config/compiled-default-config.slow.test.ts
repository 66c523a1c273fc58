import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repositoryRoot } from '../../fakes/run-compiled.js';

beforeAll(() => {
  ensureBuilt();
}, 180_000);

describe('the built agent reads config/default.yaml without the YAML parser', () => {
  it('takes the compiled value, equal to the parsed file, and never loads yaml; an edited file would be parsed', () => {
    // A child of its own, so this process's modules say nothing about what the compiled loader loaded.
    const script = `
      import { createRequire } from 'node:module';
      import { readFileSync } from 'node:fs';
      const { readConfigFile } = await import(${JSON.stringify(join(repositoryRoot, 'dist', 'src', 'config', 'read-config-file.js'))});
      const reading = readConfigFile(${JSON.stringify(join(repositoryRoot, 'config', 'default.yaml'))});
      const require = createRequire(import.meta.url);
      const yamlLoaded = Object.keys(require.cache).some((file) => file.includes('/node_modules/yaml/'));
      const parsed = require(${JSON.stringify(join(repositoryRoot, 'node_modules', 'yaml'))}).parse(readFileSync(${JSON.stringify(join(repositoryRoot, 'config', 'default.yaml'))}, 'utf8'));
      console.log(JSON.stringify({ yamlLoaded, reading, parsed }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repositoryRoot, encoding: 'utf8' });
    const { yamlLoaded, reading, parsed } = JSON.parse(output) as { yamlLoaded: boolean; reading: { ok: boolean; value: unknown }; parsed: unknown };
    expect(yamlLoaded).toBe(false);
    expect(reading).toEqual({ ok: true, value: parsed });
  });
});
