import { describe, expect, it } from 'vitest';
import { formatMcpResult } from '../../../../tools/mcp/format-mcp-result.js';

describe('formatMcpResult', () => {
  it('passes text blocks on, one per line', () => {
    expect(formatMcpResult({ content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] })).toMatchObject({ ok: true, output: 'first\nsecond' });
  });

  it('describes an image instead of passing base64 to the model', () => {
    const outcome = formatMcpResult({ content: [{ type: 'text', text: 'Here it is:' }, { type: 'image', mimeType: 'image/png', data: 'A'.repeat(4000) }] });
    expect(outcome).toMatchObject({ ok: true, metadata: { contentTypes: ['text', 'image'] } });
    expect(outcome.ok && outcome.output).toBe('Here it is:\n[image image/png, 3 KiB: not shown to you; tell the person it was produced]');
  });

  it('shows an embedded text resource and names a resource link', () => {
    const outcome = formatMcpResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///notes/a.txt', text: 'oat milk' } },
        { type: 'resource_link', uri: 'file:///notes/b.txt', name: 'b.txt' },
      ],
    });
    expect(outcome.ok && outcome.output).toBe('[resource file:///notes/a.txt]\noat milk\n[resource link: file:///notes/b.txt (b.txt)]');
  });

  it('uses structured content when there is no content block', () => {
    expect(formatMcpResult({ content: [], structuredContent: { sum: 3 } })).toMatchObject({ ok: true, output: '{"sum":3}' });
  });

  it('turns isError into a failure the model reads', () => {
    expect(formatMcpResult({ isError: true, content: [{ type: 'text', text: 'Access denied - path outside allowed directories' }] })).toEqual({
      ok: false,
      error: 'Access denied - path outside allowed directories',
      kind: 'business',
    });
  });
});
