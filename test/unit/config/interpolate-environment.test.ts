// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about ${VAR} placeholders written in plain strings.
import { describe, expect, it } from 'vitest';
import { collectSecrets } from '../../../src/config/collect-secrets.js';
import { commaList, flexibleBoolean } from '../../../src/config/comma-list.js';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { createConfigSchema } from '../../../src/config/config-schema.js';
import { interpolateEnvironment, type MissingVariable } from '../../../src/config/interpolate-environment.js';
import { isSecretName } from '../../../src/config/is-secret-name.js';
import { mergeConfig } from '../../../src/config/merge-config.js';
import { parseDotenv } from '../../../src/config/parse-dotenv.js';

const configSchema = createConfigSchema(channelConfigSections());

describe('interpolateEnvironment', () => {
  it('replaces ${VAR} and ${VAR:-default} in every string of the tree', () => {
    const tree = { a: '${HOST}:${PORT:-80}', list: ['${HOST}', 'plain'], nested: { b: 'x-${MISSING:-fallback}-y' }, number: 5, nothing: null };
    expect(interpolateEnvironment(tree, { HOST: 'example.org' })).toEqual({
      a: 'example.org:80',
      list: ['example.org', 'plain'],
      nested: { b: 'x-fallback-y' },
      number: 5,
      nothing: null,
    });
  });

  it('uses an empty default when written ${VAR:-}', () => {
    expect(interpolateEnvironment('${KEY:-}', {})).toBe('');
  });

  it('prefers a set variable over the default', () => {
    expect(interpolateEnvironment('${PORT:-80}', { PORT: '8080' })).toBe('8080');
  });

  it('records a ${VAR} without default whose variable is unset, with its path', () => {
    const missing: MissingVariable[] = [];
    expect(interpolateEnvironment({ model: { apiKey: '${API_KEY}' }, list: ['${OTHER}'] }, {}, missing)).toEqual({ model: { apiKey: '' }, list: [''] });
    expect(missing).toEqual([
      { name: 'API_KEY', path: 'model.apiKey' },
      { name: 'OTHER', path: 'list[0]' },
    ]);
  });

  it('does not let a value change the structure of the file (it is interpolated after parsing)', () => {
    expect(interpolateEnvironment({ name: '${NAME}' }, { NAME: 'a: b # c\nd: e' })).toEqual({ name: 'a: b # c\nd: e' });
  });

  it('does not interpolate the result again', () => {
    expect(interpolateEnvironment('${A}', { A: '${B}', B: 'no' })).toBe('${B}');
  });
});

describe('parseDotenv', () => {
  it('reads NAME=value lines, comments, export prefixes and quotes', () => {
    const text = [
      '# comment',
      '',
      'PLAIN=value',
      'SPACED = padded ',
      'export EXPORTED=yes',
      'DOUBLE="a # not a comment"',
      "SINGLE='x y'",
      'NEWLINE="line1\\nline2"',
      'TRAILING=value # a comment',
      'EMPTY=',
      'not a line',
    ].join('\r\n');
    expect(parseDotenv(text)).toEqual({
      PLAIN: 'value',
      SPACED: 'padded',
      EXPORTED: 'yes',
      DOUBLE: 'a # not a comment',
      SINGLE: 'x y',
      NEWLINE: 'line1\nline2',
      TRAILING: 'value',
      EMPTY: '',
    });
  });

  it('keeps a # without a space before it as part of the value', () => {
    expect(parseDotenv('TOKEN=abc#def')).toEqual({ TOKEN: 'abc#def' });
  });
});

describe('mergeConfig', () => {
  it('merges objects deeply; arrays and scalars of the overlay replace', () => {
    expect(mergeConfig({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] }, d: 'y', e: true })).toEqual({ a: { b: 1, c: [3] }, d: 'y', e: true });
  });

  it('keeps the base when the overlay is empty', () => {
    expect(mergeConfig({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});

describe('config value helpers', () => {
  it('commaList reads text, numbers and arrays', () => {
    expect(commaList.parse('1, 2 ,3')).toEqual(['1', '2', '3']);
    expect(commaList.parse(12345)).toEqual(['12345']);
    expect(commaList.parse([1, 'two'])).toEqual(['1', 'two']);
    expect(commaList.parse('')).toEqual([]);
    expect(commaList.parse(undefined)).toEqual([]);
  });

  it('flexibleBoolean reads the text forms environment variables carry', () => {
    for (const text of ['true', 'TRUE', '1', 'yes', 'on']) expect(flexibleBoolean.parse(text)).toBe(true);
    for (const text of ['false', '0', 'no', 'off', '']) expect(flexibleBoolean.parse(text)).toBe(false);
    expect(flexibleBoolean.safeParse('maybe').success).toBe(false);
  });

  it('isSecretName recognises secret words in any case', () => {
    for (const name of ['apiKey', 'TOKEN', 'webhookSecret', 'password', 'passwd', 'credentials', 'Authorization']) expect(isSecretName(name)).toBe(true);
    for (const name of ['name', 'port', 'host']) expect(isSecretName(name)).toBe(false);
  });

  it('collectSecrets gathers every secret value of six characters or more', () => {
    const config = configSchema.parse({
      model: { primary: { provider: 'openai', name: 'm', apiKey: 'sk-primary' }, fallback: { provider: 'anthropic', name: 'c', apiKey: 'short' } },
      channels: { telegram: { token: '123:telegram', webhookSecret: 'tg-hook-secret' }, wechat: { puppetToken: 'puppet-token' }, webhook: { secret: 'webhook-secret' } },
      tools: { credentials: { web_fetch: { apiKey: 'fetch-credential' } } },
    });
    expect(collectSecrets(config, channelConfigSections()).sort()).toEqual(['123:telegram', 'fetch-credential', 'puppet-token', 'sk-primary', 'tg-hook-secret', 'webhook-secret']);
  });
});
