import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { createChannelConfigSection } from '../../../src/config/channel-config-section.js';
import { collectSecrets } from '../../../src/config/collect-secrets.js';
import { optionalText } from '../../../src/config/comma-list.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { createAuditLog } from '../../../src/registry/audit-log.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');
const folders: ReturnType<typeof createTemporaryFolder>[] = [];
afterEach(() => {
  while (folders.length > 0) folders.pop()?.remove();
});

/** A channel the core has never heard of, contributing its section the way a channel folder does. */
const tcpConfig = createChannelConfigSection({
  name: 'tcp',
  schema: z.strictObject({
    port: z.coerce.number().int().default(7000).describe('Port the toy channel listens on.'),
    sharedKey: optionalText.describe('Key every client sends first.'),
  }),
  environment: { port: 'TCP_PORT', sharedKey: 'TCP_SHARED_KEY' },
  secrets: ['sharedKey'],
});

const environment = { OPENAI_API_KEY: 'test-key', TCP_SHARED_KEY: 'tcp-shared-key-4711', TCP_PORT: '7100' };

describe('a channel config section (channels.<name> contributed by the adapter)', () => {
  it('reads its variables and defaults into a typed section, and a config file wins over the environment', () => {
    const fromEnvironment = loadConfig({ root: repositoryRoot, environment, channels: [tcpConfig] });
    if (!fromEnvironment.ok) throw new Error(fromEnvironment.errors.join('; '));
    expect(tcpConfig.read(fromEnvironment.config)).toEqual({ port: 7100, sharedKey: 'tcp-shared-key-4711' });

    const folder = createTemporaryFolder('tcp-config');
    folders.push(folder);
    const overlay = join(folder.path, 'tcp.yaml');
    writeFileSync(overlay, 'channels:\n  tcp:\n    port: 7200\n');
    const fromFile = loadConfig({ root: repositoryRoot, configFile: overlay, environment, channels: [tcpConfig] });
    if (!fromFile.ok) throw new Error(fromFile.errors.join('; '));
    expect(tcpConfig.read(fromFile.config).port).toBe(7200);
  });

  it('refuses a section no adapter contributed, naming the key', () => {
    const folder = createTemporaryFolder('tcp-config');
    folders.push(folder);
    const overlay = join(folder.path, 'tcp.yaml');
    writeFileSync(overlay, 'channels:\n  tcp:\n    port: 7200\n');
    const loaded = loadConfig({ root: repositoryRoot, configFile: overlay, environment, channels: channelConfigSections() });
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.errors.join('\n')).toContain('tcp');
  });

  it("masks a new channel's secret in log lines and audit entries without any core edit", async () => {
    const loaded = loadConfig({ root: repositoryRoot, environment, channels: [...channelConfigSections(), tcpConfig] });
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const secrets = collectSecrets(loaded.config, [...channelConfigSections(), tcpConfig]);
    expect(secrets).toContain('tcp-shared-key-4711');

    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = await createLogger({ level: 'info', pretty: false, destination, secrets });
    logger.info({ key: 'tcp-shared-key-4711' }, 'client sent tcp-shared-key-4711');
    expect(chunks.join('')).toContain('client sent ***');
    expect(chunks.join('')).not.toContain('tcp-shared-key-4711');

    const folder = createTemporaryFolder('tcp-audit');
    folders.push(folder);
    const audit = createAuditLog({ directory: folder.path, secrets });
    audit.record({ kind: 'tool-call', channel: 'tcp', tool: 'exec', arguments: { command: 'echo tcp-shared-key-4711' }, outcome: 'ok' });
    await audit.flush();
    const written = readFileSync(join(folder.path, 'audit.jsonl'), 'utf8');
    expect(written).toContain('echo ***');
    expect(written).not.toContain('tcp-shared-key-4711');
  });

  it('masks each entry of a secret that holds a list (several keys), the entry itself or its `secret`', () => {
    const keyring = createChannelConfigSection({
      name: 'keyring',
      schema: z.strictObject({
        keys: z.array(z.strictObject({ secret: z.string(), user: z.string() })).default([]),
        tokens: z.array(z.string()).default([]),
      }),
      environment: {},
      secrets: ['keys', 'tokens'],
    });
    const folder = createTemporaryFolder('keyring-config');
    folders.push(folder);
    const overlay = join(folder.path, 'keyring.yaml');
    writeFileSync(overlay, 'channels:\n  keyring:\n    keys: [{ secret: key-of-alice-0001, user: alice-the-user }]\n    tokens: [token-number-two]\n');
    const loaded = loadConfig({ root: repositoryRoot, configFile: overlay, environment, channels: [keyring] });
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const secrets = collectSecrets(loaded.config, [keyring]);
    expect(secrets).toEqual(expect.arrayContaining(['key-of-alice-0001', 'token-number-two']));
    expect(secrets).not.toContain('alice-the-user');
  });

  it('config/.env.example lists every variable the built-in channels read', () => {
    const example = readFileSync(join(repositoryRoot, 'config', '.env.example'), 'utf8');
    const listed = new Set([...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
    const missing = channelConfigSections().flatMap((section) => Object.values(section.environment)).filter((variable) => !listed.has(variable));
    expect(missing).toEqual([]);
  });

  it('config/.env.example lists no variable that nothing reads', () => {
    const example = readFileSync(join(repositoryRoot, 'config', '.env.example'), 'utf8');
    const defaultYaml = readFileSync(join(repositoryRoot, 'config', 'default.yaml'), 'utf8');
    const read = new Set([
      ...[...defaultYaml.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]),
      ...channelConfigSections().flatMap((section) => Object.values(section.environment)),
      // The loader itself reads the overlay's name.
      'ECHO_CONFIG',
    ]);
    const unread = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]).filter((variable) => !read.has(variable));
    expect(unread).toEqual([]);
  });
});
