import { describe, expect, it } from 'vitest';
import { canonicalJson, hashParts, hashToolCall } from '../../../src/registry/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every level, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('gives equal text for equal values written in another key order', () => {
    expect(canonicalJson(JSON.parse('{"x":1,"y":{"q":2,"p":3}}'))).toBe(canonicalJson({ y: { p: 3, q: 2 }, x: 1 }));
  });

  it('keeps a "__proto__" key from parsed JSON, so it cannot vanish from a hash', () => {
    const withProto = JSON.parse('{"__proto__":{"a":1},"x":1}') as unknown;
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"a":1},"x":1}');
    expect(canonicalJson(withProto)).not.toBe(canonicalJson({ x: 1 }));
  });

  it('writes a date as JSON.stringify does, not as an empty object', () => {
    expect(canonicalJson({ at: new Date('2025-01-02T03:04:05.000Z') })).toBe('{"at":"2025-01-02T03:04:05.000Z"}');
    expect(canonicalJson({ at: new Date('2025-01-01T00:00:00.000Z') })).not.toBe(canonicalJson({ at: new Date('2026-01-01T00:00:00.000Z') }));
  });

  it('keeps scalars as JSON does', () => {
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(3)).toBe('3');
    expect(canonicalJson(null)).toBe('null');
  });
});

describe('hashParts and hashToolCall', () => {
  it('join parts unambiguously', () => {
    expect(hashParts('ab', 'c')).not.toBe(hashParts('a', 'bc'));
    expect(hashParts('a', 'b')).toBe(hashParts('a', 'b'));
    expect(hashParts('x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('bind a hash to the tool and its canonical arguments', () => {
    expect(hashToolCall('exec', { command: 'ls', timeoutSec: 5 })).toBe(hashToolCall('exec', { timeoutSec: 5, command: 'ls' }));
    expect(hashToolCall('exec', { command: 'ls' })).not.toBe(hashToolCall('exec', { command: 'ls -la' }));
    expect(hashToolCall('exec', { command: 'ls' })).not.toBe(hashToolCall('write_file', { command: 'ls' }));
  });
});
