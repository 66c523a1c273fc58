import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../../tools/edit-file-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('edit_file tool', () => {
  let fake: FakeToolServices;
  let outside: string;
  beforeEach(async () => {
    fake = await createFakeToolServices();
    outside = await mkdtemp(path.join(tmpdir(), 'echo-outside-'));
    await writeFile(path.join(outside, 'target.txt'), 'original');
  });
  afterEach(async () => {
    await fake.cleanup();
    await rm(outside, { recursive: true, force: true });
  });

  it('replaces text that occurs exactly once, keeping $ patterns literal', async () => {
    const file = path.join(fake.workspaceDir, 'config.txt');
    await writeFile(file, 'port = 80\nhost = a\n');
    const outcome = await editFileTool.execute(editFileTool.input.parse({ path: 'config.txt', oldText: 'port = 80', newText: 'port = $&8080' }), fake.context);
    expect(outcome).toMatchObject({ ok: true });
    expect(await readFile(file, 'utf8')).toBe('port = $&8080\nhost = a\n');
  });

  it('refuses when oldText is missing or occurs more than once', async () => {
    const file = path.join(fake.workspaceDir, 'twice.txt');
    await writeFile(file, 'x = 1\nx = 1\n');
    expect(await editFileTool.execute({ path: 'twice.txt', oldText: 'x = 1', newText: 'y' }, fake.context)).toMatchObject({
      ok: false,
      error: expect.stringContaining('2 times'),
    });
    expect(await editFileTool.execute({ path: 'twice.txt', oldText: 'zzz', newText: 'y' }, fake.context)).toMatchObject({
      ok: false,
      error: expect.stringContaining('does not occur'),
    });
    expect(await readFile(file, 'utf8')).toBe('x = 1\nx = 1\n');
  });

  it('refuses ../ escapes, absolute paths outside and symbolic links pointing outside', async () => {
    await symlink(path.join(outside, 'target.txt'), path.join(fake.workspaceDir, 'link.txt'));
    const relativeEscape = path.relative(fake.workspaceDir, path.join(outside, 'target.txt'));
    for (const requested of [relativeEscape, path.join(outside, 'target.txt'), 'link.txt']) {
      const outcome = await editFileTool.execute({ path: requested, oldText: 'original', newText: 'changed' }, fake.context);
      expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('outside the workspace') });
    }
    expect(await readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('original');
  });
});
