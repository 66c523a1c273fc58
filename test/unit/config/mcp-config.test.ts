import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectSecrets } from '../../../src/config/collect-secrets.js';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { createConfigSchema } from '../../../src/config/config-schema.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { repositoryRoot } from '../../fakes/run-compiled.js';

const configSchema = createConfigSchema(channelConfigSections());

const minimal = { model: { primary: { provider: 'openai', name: 'm' } } };

describe('the mcp section', () => {
  it('reads the example: a stdio server with per-tool risk, an HTTP server with a header from the environment', () => {
    const loaded = loadConfig({ channels: channelConfigSections(), root: repositoryRoot, configFile: join('config', 'examples', 'mcp-servers.yaml'), environment: { EVERYTHING_TOKEN: 'token-from-env-123', PATH: '/opt/bin:/usr/bin' } });
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const { files, everything } = loaded.config.mcp.servers;
    expect(files).toMatchObject({ command: 'npx', risk: 'write', tools: { read_text_file: { risk: 'read_only' } }, timeoutSeconds: 30, startupTimeoutSeconds: 10 });
    expect(everything).toMatchObject({ url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: 'Bearer token-from-env-123' } });
    expect(loaded.config.mcp.path).toBe('/opt/bin:/usr/bin');
    expect(loaded.config.tools.alsoAllow).toEqual(['files__*']);
    expect(collectSecrets(loaded.config, channelConfigSections())).toContain('token-from-env-123');
  });

  it('refuses a server with both a command and a url, or neither', () => {
    for (const server of [{ command: 'node', url: 'http://127.0.0.1:1/mcp' }, { risk: 'write' }]) {
      const parsed = configSchema.safeParse({ ...minimal, mcp: { servers: { files: server } } });
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toContain('either command (stdio) or url');
    }
  });

  it('refuses server names a tool name could not carry, unknown keys and unknown risks', () => {
    expect(configSchema.safeParse({ ...minimal, mcp: { servers: { 'my.files': { command: 'node' } } } }).success).toBe(false);
    expect(configSchema.safeParse({ ...minimal, mcp: { servers: { files: { command: 'node', risky: 'no' } } } }).success).toBe(false);
    expect(configSchema.safeParse({ ...minimal, mcp: { servers: { files: { command: 'node', risk: 'harmless' } } } }).success).toBe(false);
  });

  it('refuses server names that make <server>__<tool> ambiguous (a_ would let a__* and grants match a___x), with a clear error', () => {
    const folder = mkdtempSync(join(tmpdir(), 'echo-mcp-names-'));
    try {
      for (const name of ['a_', '_a', 'a__b', '__']) {
        const file = join(folder, 'names.yaml');
        writeFileSync(file, `mcp:\n  servers:\n    ${name}:\n      command: node\n`);
        const loaded = loadConfig({ channels: channelConfigSections(), root: repositoryRoot, configFile: file, environment: { OPENAI_API_KEY: 'k' } });
        expect(loaded.ok, name).toBe(false);
        const errors = loaded.ok ? [] : loaded.errors;
        expect(errors).toEqual([expect.stringContaining(`mcp.servers.${name}: a server name may not start or end with _ nor contain __`)]);
      }
      for (const name of ['a', 'a_b', 'my-files', 'a-_b']) expect(configSchema.safeParse({ ...minimal, mcp: { servers: { [name]: { command: 'node' } } } }).success, name).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
