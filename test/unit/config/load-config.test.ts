// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about ${VAR} placeholders written in plain strings.
import { telegramConfig } from '../../../channels/telegram/telegram-config.js';
import { webhookConfig } from '../../../channels/webhook/webhook-config.js';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');
const folders: ReturnType<typeof createTemporaryFolder>[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  while (folders.length > 0) folders.pop()?.remove();
});

/** A project root with a copy of the real config/default.yaml, and optional extra files. */
function projectRoot(files: Record<string, string> = {}): string {
  const folder = createTemporaryFolder('config');
  folders.push(folder);
  mkdirSync(join(folder.path, 'config'));
  copyFileSync(join(repositoryRoot, 'config', 'default.yaml'), join(folder.path, 'config', 'default.yaml'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder.path, name), text);
  return folder.path;
}

function loaded(result: ReturnType<typeof loadConfig>) {
  if (!result.ok) throw new Error(`expected a valid config, got: ${result.errors.join(' | ')}`);
  return result;
}

function errorsOf(result: ReturnType<typeof loadConfig>): readonly string[] {
  if (result.ok) throw new Error('expected the config to be refused');
  return result.errors;
}

describe('loadConfig: config/default.yaml', () => {
  it('loads with an empty environment, every documented default in place', () => {
    const root = projectRoot();
    const { config, files } = loaded(loadConfig({ channels: channelConfigSections(), root, environment: {} }));
    expect(files).toEqual([join(root, 'config', 'default.yaml')]);
    expect(config.model.primary).toEqual({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: undefined, name: 'gpt-4o-mini', timeoutMs: 60_000, stream: true, vision: true });
    expect(config.model.transcription).toEqual({ baseUrl: undefined, apiKey: undefined, model: 'whisper-1', timeoutMs: 120_000 });
    expect(config.media).toMatchObject({ keepHours: 72, maxFileBytes: 20 * 1024 * 1024, maxTextChars: 20_000 });
    expect(config.storage.dataDir).toBe(join(root, 'data'));
    expect(config.tools.workspaceDir).toBe(join(root, 'data', 'workspace'));
    expect(config.log.level).toBe('info');
    expect(config.agent).toMatchObject({ timezone: 'UTC', locale: 'en', maxIterations: 12 });
    expect(config.tools).toMatchObject({ profile: 'messaging', allow: [], alsoAllow: [], deny: [], network: 'public-only' });
    // An unset variable leaves its key out, so the schema's default (or nothing) applies.
    expect(telegramConfig.read(config).token).toBeUndefined();
    expect(config.channels.telegram).toMatchObject({ apiRoot: 'https://api.telegram.org', allowFrom: [], approvers: [] });
    expect(config.channels.wechat).toMatchObject({ enabled: false, puppet: 'wechaty-puppet-wechat4u', allowFrom: [] });
    expect(webhookConfig.read(config).secret).toBeUndefined();
    expect(config.gateway).toMatchObject({ host: '127.0.0.1', port: 8787, metricsToken: undefined });
    expect(config.approvals).toMatchObject({ timeoutMinutes: 30, route: 'origin', require: [], autoApprove: [] });
  });

  it('is the shipped file of the repository that loads this way', () => {
    expect(loadConfig({ channels: channelConfigSections(), root: repositoryRoot, environment: {}, configFile: join(repositoryRoot, 'config', 'default.yaml') }).ok).toBe(true);
  });

  it('honours every documented environment variable', () => {
    const root = projectRoot();
    const { config } = loaded(
      loadConfig({ channels: channelConfigSections(),
        root,
        environment: {
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
          ECHO_MODEL: 'llama3',
          ANTHROPIC_API_KEY: 'ak-test',
          ECHO_DATA_DIR: '/var/lib/echo',
          ECHO_LOG_LEVEL: 'debug',
          TELEGRAM_BOT_TOKEN: '123:abc',
          TELEGRAM_API_ROOT: 'http://127.0.0.1:9000',
          TELEGRAM_ALLOW_FROM: '1, 2',
          TELEGRAM_APPROVERS: '7',
          WECHAT_ENABLED: 'true',
          WECHAT_PUPPET: 'wechaty-puppet-mock',
          WECHAT_ALLOW_FROM: 'alice,bob',
          WECHAT_APPROVERS: 'alice',
          GATEWAY_HOST: '0.0.0.0',
          GATEWAY_PORT: '9999',
          WEBHOOK_SECRET: 'hook-secret',
          ECHO_TIMEZONE: 'Europe/Paris',
          ECHO_MODEL_VISION: 'false',
          ECHO_TRANSCRIPTION_BASE_URL: 'http://127.0.0.1:9001/v1',
          ECHO_TRANSCRIPTION_API_KEY: 'whisper-key',
          ECHO_TRANSCRIPTION_MODEL: 'whisper-large-v3',
        },
      }),
    );
    expect(config.model.primary).toMatchObject({ apiKey: 'sk-test', baseUrl: 'http://127.0.0.1:11434/v1', name: 'llama3', vision: false });
    expect(config.model.transcription).toMatchObject({ baseUrl: 'http://127.0.0.1:9001/v1', apiKey: 'whisper-key', model: 'whisper-large-v3' });
    expect(config.model.fallback).toMatchObject({ provider: 'anthropic', apiKey: 'ak-test' });
    expect(config.storage.dataDir).toBe('/var/lib/echo');
    expect(config.log.level).toBe('debug');
    expect(config.channels.telegram).toMatchObject({ token: '123:abc', apiRoot: 'http://127.0.0.1:9000', allowFrom: ['1', '2'], approvers: ['7'] });
    expect(config.channels.wechat).toMatchObject({ enabled: true, puppet: 'wechaty-puppet-mock', allowFrom: ['alice', 'bob'], approvers: ['alice'] });
    // The gateway keeps its historical variable names.
    expect(config.gateway).toMatchObject({ host: '0.0.0.0', port: 9999 });
    expect(config.channels.webhook).toMatchObject({ secret: 'hook-secret' });
    expect(config.agent.timezone).toBe('Europe/Paris');
  });

  it('reads a comma list from the environment, trimming spaces and dropping empty items', () => {
    const { config } = loaded(loadConfig({ channels: channelConfigSections(), root: projectRoot(), environment: { TELEGRAM_ALLOW_FROM: '1, 2', TELEGRAM_APPROVERS: ' 3 ,, 4 ,' } }));
    expect(telegramConfig.read(config).allowFrom).toEqual(['1', '2']);
    expect(telegramConfig.read(config).approvers).toEqual(['3', '4']);
  });

  it('uses ${VAR:-default} when the variable is empty as well as when it is unset', () => {
    const { config } = loaded(loadConfig({ channels: channelConfigSections(), root: projectRoot(), environment: { ECHO_MODEL: '' } }));
    expect(config.model.primary.name).toBe('gpt-4o-mini');
  });
});

describe('loadConfig: overlays', () => {
  const local = 'agent:\n  name: from-local\n';
  const overlay = 'agent:\n  name: from-overlay\nmodel:\n  primary:\n    name: ${OVERLAY_MODEL}\n    provider: openai\n';

  it('merges config/local.yaml over default.yaml when present', () => {
    const root = projectRoot({ 'config/local.yaml': local });
    const result = loaded(loadConfig({ channels: channelConfigSections(), root, environment: {} }));
    expect(result.config.agent.name).toBe('from-local');
    expect(result.config.model.primary.baseUrl).toBe('https://api.openai.com/v1');
    expect(result.files).toEqual([join(root, 'config', 'default.yaml'), join(root, 'config', 'local.yaml')]);
  });

  it('a --config FILE takes the place of config/local.yaml, relative to the root, interpolated too', () => {
    const root = projectRoot({ 'config/local.yaml': local, 'mine.yaml': overlay });
    const result = loaded(loadConfig({ channels: channelConfigSections(), root, configFile: 'mine.yaml', environment: { OVERLAY_MODEL: 'qwen' } }));
    expect(result.config.agent.name).toBe('from-overlay');
    expect(result.config.model.primary.name).toBe('qwen');
    expect(result.files).toEqual([join(root, 'config', 'default.yaml'), join(root, 'mine.yaml')]);
  });

  it('ECHO_CONFIG names the overlay when --config is not given', () => {
    const root = projectRoot({ 'config/local.yaml': local, 'mine.yaml': overlay });
    const result = loaded(loadConfig({ channels: channelConfigSections(), root, environment: { ECHO_CONFIG: join(root, 'mine.yaml'), OVERLAY_MODEL: 'm' } }));
    expect(result.config.agent.name).toBe('from-overlay');
  });

  it('reports an overlay file that does not exist', () => {
    const root = projectRoot();
    expect(errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'missing.yaml', environment: {} }))).toEqual([`The config file ${join(root, 'missing.yaml')} does not exist.`]);
  });

  it('lets an overlay list replace a default list instead of merging it', () => {
    const root = projectRoot({ 'over.yaml': 'tools:\n  deny: [exec]\n  alsoAllow:\n    - read_file\n' });
    const { config } = loaded(loadConfig({ channels: channelConfigSections(), root, configFile: 'over.yaml', environment: {} }));
    expect(config.tools.deny).toEqual(['exec']);
    expect(config.tools.alsoAllow).toEqual(['read_file']);
  });
});

describe('loadConfig: .env in the project root', () => {
  it('reads .env when no environment is passed', () => {
    vi.stubEnv('ECHO_MODEL', undefined);
    vi.stubEnv('ECHO_CONFIG', undefined);
    vi.stubEnv('TELEGRAM_ALLOW_FROM', undefined);
    const root = projectRoot({ '.env': '# local settings\nECHO_MODEL=from-dotenv\nexport TELEGRAM_ALLOW_FROM="5, 6"\n' });
    const { config } = loaded(loadConfig({ channels: channelConfigSections(), root }));
    expect(config.model.primary.name).toBe('from-dotenv');
    expect(telegramConfig.read(config).allowFrom).toEqual(['5', '6']);
  });

  it('lets the real environment win over .env', () => {
    vi.stubEnv('ECHO_MODEL', 'from-environment');
    vi.stubEnv('ECHO_CONFIG', undefined);
    const root = projectRoot({ '.env': 'ECHO_MODEL=from-dotenv\n' });
    expect(loaded(loadConfig({ channels: channelConfigSections(), root })).config.model.primary.name).toBe('from-environment');
  });

  it('works without a .env file', () => {
    vi.stubEnv('ECHO_MODEL', undefined);
    vi.stubEnv('ECHO_CONFIG', undefined);
    expect(loaded(loadConfig({ channels: channelConfigSections(), root: projectRoot() })).config.model.primary.name).toBe('gpt-4o-mini');
  });
});

describe('loadConfig: invalid files', () => {
  it('reports every bad key with its path, what was expected and a hint', () => {
    const root = projectRoot({ 'bad.yaml': 'log:\n  level: loud\ngateway:\n  port: not-a-port\nagent:\n  maxIterations: 0\n' });
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'bad.yaml', environment: {} }));
    expect(errors).toHaveLength(3);
    expect(errors).toContain('log.level: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent" (got "loud"). Use one of: fatal, error, warn, info, debug, trace, silent');
    expect(errors.find((line) => line.startsWith('gateway.port: '))).toMatch(/expected number.*\(got "not-a-port"\)\. Write a plain number, e\.g\. 8787$/);
    expect(errors.find((line) => line.startsWith('agent.maxIterations: '))).toMatch(/>=1.*\(got 0\)$/);
  });

  it('reports a bad value that came from an environment variable at its config path', () => {
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root: projectRoot(), environment: { GATEWAY_PORT: 'eighty' } }));
    expect(errors).toEqual([expect.stringMatching(/^gateway\.port: .*\(got "eighty"\)/)]);
  });

  it('stops at a variable a channel renamed (WEBHOOK_PORT, now GATEWAY_PORT) instead of ignoring its value', () => {
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root: projectRoot(), environment: { WEBHOOK_PORT: '9000' } }));
    expect(errors).toEqual(['WEBHOOK_PORT is now called GATEWAY_PORT: rename it in your environment or .env (its value is not read under the old name).']);
    const both = loadConfig({ channels: channelConfigSections(), root: projectRoot(), environment: { WEBHOOK_PORT: '9000', GATEWAY_PORT: '9001' } });
    expect(both.ok && both.config.gateway.port).toBe(9001);
  });

  it('never echoes the value of a secret-named key', () => {
    const root = projectRoot({ 'bad.yaml': 'channels:\n  webhook:\n    secret: [hunter2-secret-value]\n  telegram:\n    token: {nested: tg-secret-value}\n' });
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'bad.yaml', environment: {} }));
    expect(errors).toHaveLength(2);
    expect(errors.join('\n')).not.toContain('hunter2');
    expect(errors.join('\n')).not.toContain('tg-secret-value');
    expect(errors.find((line) => line.startsWith('channels.webhook.secret: '))).toContain('(got a value (hidden: it is a secret))');
  });

  it('never echoes a secret from the environment either (WEBHOOK_SECRET of a bad type)', () => {
    const root = projectRoot({ 'bad.yaml': 'channels:\n  webhook:\n    secret: 12345678\n' });
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'bad.yaml', environment: { WEBHOOK_SECRET: 'ignored' } }));
    expect(errors).toEqual([expect.stringContaining('channels.webhook.secret: ')]);
    expect(errors[0]).not.toContain('12345678');
  });

  it('reports unknown keys at every level', () => {
    const root = projectRoot({ 'bad.yaml': 'colour: blue\nagent:\n  maxIterationz: 3\nbus:\n  maxQueue: 5\nchannels:\n  slack: {}\n  telegram:\n    allowfrom: "1"\n' });
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'bad.yaml', environment: {} }));
    expect(errors).toEqual(
      expect.arrayContaining([
        '(root): Unrecognized key: "colour" (got a section). Check the spelling against docs/configuration.md',
        'agent: Unrecognized key: "maxIterationz" (got a section). Check the spelling against docs/configuration.md',
        'bus: Unrecognized key: "maxQueue" (got a section). Check the spelling against docs/configuration.md',
        'channels: Unrecognized key: "slack" (got a section). Check the spelling against docs/configuration.md',
        'channels.telegram: Unrecognized key: "allowfrom" (got a section). Check the spelling against docs/configuration.md',
      ]),
    );
    expect(errors).toHaveLength(5);
  });

  it('does not echo the secrets of a section that holds an unknown key', () => {
    const root = projectRoot({ 'bad.yaml': 'channels:\n  telegram:\n    botTokn: misspelt\n' });
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'bad.yaml', environment: { TELEGRAM_BOT_TOKEN: '123456:REAL-TOKEN' } }));
    expect(errors).toEqual(['channels.telegram: Unrecognized key: "botTokn" (got a section). Check the spelling against docs/configuration.md']);
    expect(errors.join('')).not.toContain('REAL-TOKEN');
  });

  it('reports invalid YAML as one sentence naming the file', () => {
    const root = projectRoot({ 'broken.yaml': 'agent:\n  name: [unclosed\n  x: : :\n' });
    const errors = errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'broken.yaml', environment: {} }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^${join(root, 'broken.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid YAML: [^\\n]+ at line \\d+, column \\d+\\.$`));
  });

  it('reports a file that is not a mapping at the root', () => {
    const root = projectRoot({ 'list.yaml': '- a\n- b\n' });
    expect(errorsOf(loadConfig({ channels: channelConfigSections(), root, configFile: 'list.yaml', environment: {} }))).toEqual([expect.stringMatching(/^\(root\): .*expected object.*\(got a list\)$/)]);
  });
});
