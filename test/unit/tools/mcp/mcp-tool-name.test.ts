import { describe, expect, it } from 'vitest';
import { toMcpToolName } from '../../../../tools/mcp/mcp-tool-name.js';

const valid = /^[A-Za-z0-9_-]{1,64}$/;

describe('toMcpToolName', () => {
  it('joins server and tool with a double underscore', () => {
    expect(toMcpToolName('files', 'read_text_file', new Set())).toBe('files__read_text_file');
  });

  it('turns characters providers refuse into _', () => {
    expect(toMcpToolName('docs', 'search.pages/v2 ü', new Set())).toBe('docs__search_pages_v2__');
  });

  it('cuts a long name to 64 characters', () => {
    const name = toMcpToolName('everything', 'x'.repeat(100), new Set());
    expect(name).toHaveLength(64);
    expect(name).toMatch(valid);
    expect(name.startsWith('everything__')).toBe(true);
  });

  it('disambiguates two tools that clean or cut to the same name, keeping both valid and stable', () => {
    const taken = new Set<string>();
    const first = toMcpToolName('docs', 'get.page', taken);
    taken.add(first);
    const second = toMcpToolName('docs', 'get/page', taken);
    expect(first).toBe('docs__get_page');
    expect(second).not.toBe(first);
    expect(second).toMatch(valid);
    expect(toMcpToolName('docs', 'get/page', taken)).toBe(second);

    const long = new Set([toMcpToolName('docs', `${'y'.repeat(80)}a`, new Set())]);
    const cut = toMcpToolName('docs', `${'y'.repeat(80)}b`, long);
    expect(cut).toHaveLength(64);
    expect(cut).toMatch(valid);
    expect(long.has(cut)).toBe(false);
  });
});
