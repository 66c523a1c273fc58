import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../../../src/registry/audit-log.js';
import { createTemporaryFolder } from './registry-fixtures.js';

let folder: ReturnType<typeof createTemporaryFolder> | undefined;
afterEach(() => folder?.remove());

function openLog(options: { maxBytes?: number; keepFiles?: number; secrets?: string[] } = {}) {
  folder = createTemporaryFolder('audit');
  const directory = join(folder.path, 'nested', 'audit');
  return { directory, audit: createAuditLog({ directory, ...options }) };
}

function linesOf(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('createAuditLog', () => {
  it('appends one JSON line per entry, with a time, creating the folder', async () => {
    const { directory, audit } = openLog();
    audit.record({ kind: 'tool-call', tool: 'memory', outcome: 'ok', attempts: 1 });
    audit.record({ kind: 'approval-decided', approvalId: 'abc', outcome: 'approved:once', decidedBy: 'alice' });
    await audit.flush();
    const lines = linesOf(join(directory, 'audit.jsonl'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ kind: 'tool-call', tool: 'memory', outcome: 'ok', attempts: 1 });
    expect(lines[1]).toMatchObject({ kind: 'approval-decided', approvalId: 'abc', decidedBy: 'alice' });
    expect(Number.isNaN(Date.parse(String(lines[0]?.at)))).toBe(false);
  });

  it.each([
    ['apiKey', 'sk-1'],
    ['token', 't-1'],
    ['client_secret', 's-1'],
    ['password', 'p-1'],
    ['credentials', 'c-1'],
    ['Authorization', 'Bearer x'],
    ['x-auth-header', 'h-1'],
  ])('masks the value of a key containing a secret word (%s)', async (key, value) => {
    const { audit } = openLog();
    audit.record({ kind: 'tool-call', tool: 't', outcome: 'ok', arguments: { [key]: value, plain: 'shown' } });
    const [entry] = await audit.recent(1);
    expect(entry?.arguments).toEqual({ [key]: '***', plain: 'shown' });
  });

  it('masks secret-named keys at any depth and inside arrays', async () => {
    const { audit } = openLog();
    audit.record({ kind: 'tool-call', tool: 't', outcome: 'ok', arguments: { outer: { list: [{ token: 'deep-token' }], fine: 1 } } });
    const [entry] = await audit.recent(1);
    expect(entry?.arguments).toEqual({ outer: { list: [{ token: '***' }], fine: 1 } });
  });

  it('masks secret flags inside strings: --token=abc and --password abc', async () => {
    const { audit } = openLog();
    audit.record({
      kind: 'tool-call',
      tool: 'exec',
      outcome: 'ok',
      arguments: { command: 'deploy --token=abc --password hunter22 --api-key "q w" --verbose', note: 'curl -H x --auth-token xyz' },
    });
    const [entry] = await audit.recent(1);
    expect(entry?.arguments).toEqual({ command: 'deploy --token=*** --password *** --api-key *** --verbose', note: 'curl -H x --auth-token ***' });
  });

  it('masks known secret values wherever they appear, in arguments and the error text', async () => {
    const { directory, audit } = openLog({ secrets: ['s3cr3t-value'] });
    audit.record({ kind: 'tool-call', tool: 't', outcome: 'business', arguments: { text: 'my s3cr3t-value here' }, error: 'rejected s3cr3t-value --token=zzz' });
    await audit.flush();
    const raw = readFileSync(join(directory, 'audit.jsonl'), 'utf8');
    expect(raw).not.toContain('s3cr3t-value');
    expect(raw).not.toContain('zzz');
    expect(linesOf(join(directory, 'audit.jsonl'))[0]).toMatchObject({ arguments: { text: 'my *** here' }, error: 'rejected *** --token=***' });
  });

  it('keeps empty secret-named values as they are (nothing to hide)', async () => {
    const { audit } = openLog();
    audit.record({ kind: 'tool-call', tool: 't', outcome: 'ok', arguments: { token: '', key: null } });
    expect((await audit.recent(1))[0]?.arguments).toEqual({ token: '', key: null });
  });

  it('rotates by size: audit.jsonl → audit.1.jsonl → audit.2.jsonl, keeping keepFiles', async () => {
    const { directory, audit } = openLog({ maxBytes: 10, keepFiles: 2 });
    for (const tool of ['a', 'b', 'c', 'd']) {
      audit.record({ kind: 'tool-call', tool, outcome: 'ok' });
      await audit.flush();
    }
    expect(readdirSync(directory).sort()).toEqual(['audit.1.jsonl', 'audit.2.jsonl', 'audit.jsonl']);
    expect(linesOf(join(directory, 'audit.jsonl')).map((line) => line.tool)).toEqual(['d']);
    expect(linesOf(join(directory, 'audit.1.jsonl')).map((line) => line.tool)).toEqual(['c']);
    expect(linesOf(join(directory, 'audit.2.jsonl')).map((line) => line.tool)).toEqual(['b']);
  });

  it('does not rotate below the size limit', async () => {
    const { directory, audit } = openLog({ maxBytes: 1_000_000 });
    for (const tool of ['a', 'b', 'c']) {
      audit.record({ kind: 'tool-call', tool, outcome: 'ok' });
      await audit.flush();
    }
    expect(readdirSync(directory)).toEqual(['audit.jsonl']);
  });

  it('recent() gives the newest entries, newest last, also across a rotation', async () => {
    const { audit } = openLog({ maxBytes: 10, keepFiles: 3 });
    for (const tool of ['a', 'b', 'c', 'd', 'e']) {
      audit.record({ kind: 'tool-call', tool, outcome: 'ok' });
      await audit.flush();
    }
    expect((await audit.recent(3)).map((entry) => entry.tool)).toEqual(['c', 'd', 'e']);
    expect((await audit.recent(100)).map((entry) => entry.tool)).toEqual(['b', 'c', 'd', 'e']);
  });

  it('recent() flushes what was recorded but not yet written', async () => {
    const { audit } = openLog();
    audit.record({ kind: 'tool-call', tool: 'x', outcome: 'ok' });
    expect((await audit.recent(5)).map((entry) => entry.tool)).toEqual(['x']);
  });

  it('recent() works when called detached from the log object', async () => {
    const { audit } = openLog();
    audit.record({ kind: 'tool-call', tool: 'x', outcome: 'ok' });
    const { recent } = audit;
    expect((await recent(5)).map((entry) => entry.tool)).toEqual(['x']);
  });

  it('recent() on an empty log is empty', async () => {
    const { audit } = openLog();
    expect(await audit.recent(5)).toEqual([]);
  });
});
