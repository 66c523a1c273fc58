import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileTool } from '../../../tools/write-file-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('write_file tool', () => {
  let fake: FakeToolServices;
  let outside: string;
  beforeEach(async () => {
    fake = await createFakeToolServices();
    outside = await mkdtemp(path.join(tmpdir(), 'echo-outside-'));
  });
  afterEach(async () => {
    await fake.cleanup();
    await rm(outside, { recursive: true, force: true });
  });

  it('creates a file and its missing folders', async () => {
    const outcome = await writeFileTool.execute(writeFileTool.input.parse({ path: 'drafts/a/b.txt', content: 'héllo' }), fake.context);
    expect(outcome).toMatchObject({ ok: true, output: 'Wrote 6 bytes to drafts/a/b.txt.' });
    expect(await readFile(path.join(fake.workspaceDir, 'drafts/a/b.txt'), 'utf8')).toBe('héllo');
  });

  it('refuses ../ escapes, absolute paths outside and symbolic links pointing outside, writing nothing', async () => {
    await symlink(outside, path.join(fake.workspaceDir, 'link'));
    const relativeEscape = path.relative(fake.workspaceDir, path.join(outside, 'escaped.txt'));
    for (const requested of ['../escaped.txt', relativeEscape, path.join(outside, 'escaped.txt'), 'link/escaped.txt']) {
      const outcome = await writeFileTool.execute({ path: requested, content: 'x' }, fake.context);
      expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('outside the workspace') });
    }
    expect(await readdir(outside)).toEqual([]);
  });

  it('refuses to write through a broken symbolic link that points outside', async () => {
    await symlink(path.join(outside, 'created-through-link.txt'), path.join(fake.workspaceDir, 'dangling'));
    const outcome = await writeFileTool.execute({ path: 'dangling', content: 'x' }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business' });
    expect(await readdir(outside)).toEqual([]);
  });
});
