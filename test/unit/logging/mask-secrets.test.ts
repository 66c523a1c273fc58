import { describe, expect, it } from 'vitest';
import { maskSecrets, maskSecretText } from '../../../src/logging/mask-secrets.js';

describe('maskSecretText', () => {
  it.each([
    ['--token=abc', '--token=***'],
    ['--password abc', '--password ***'],
    ['--api-key "two words"', '--api-key ***'],
    ["--client-secret='x y'", '--client-secret=***'],
    ['-auth xyz', '-auth ***'],
    ['--credential-file /etc/c', '--credential-file ***'],
    ['--verbose --name bob', '--verbose --name bob'],
    ['key sk-live-key-123 was refused', 'key sk-live-key-123 was refused'],
    ['a well-known-token value', 'a well-known-token value'],
  ])('%s → %s', (text, expected) => {
    expect(maskSecretText(text)).toBe(expected);
  });

  it('masks every occurrence of known values', () => {
    expect(maskSecretText('a SECRET b SECRET', ['SECRET'])).toBe('a *** b ***');
  });

  it('ignores empty known values', () => {
    expect(maskSecretText('abc', [''])).toBe('abc');
  });
});

describe('maskSecrets', () => {
  it('masks secret-named keys, flags in strings and known values, without changing the input', () => {
    const input = { apiKey: 'k', list: [{ password: 'p' }, 'run --token=t'], note: 'has KNOWN inside', count: 2 };
    expect(maskSecrets(input, ['KNOWN'])).toEqual({ apiKey: '***', list: [{ password: '***' }, 'run --token=***'], note: 'has *** inside', count: 2 });
    expect(input.apiKey).toBe('k');
  });

  it('stops at a safe depth', () => {
    let deep: unknown = 'bottom';
    for (let index = 0; index < 20; index += 1) deep = { next: deep };
    expect(JSON.stringify(maskSecrets(deep))).toContain('[too deep]');
  });
});
