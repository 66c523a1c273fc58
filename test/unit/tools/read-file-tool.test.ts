import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../../tools/read-file-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('read_file tool', () => {
  let fake: FakeToolServices;
  let outside: string;
  beforeEach(async () => {
    fake = await createFakeToolServices();
    outside = await mkdtemp(path.join(tmpdir(), 'echo-outside-'));
    await writeFile(path.join(outside, 'secret.txt'), 'outside secret');
  });
  afterEach(async () => {
    await fake.cleanup();
    await rm(outside, { recursive: true, force: true });
  });

  it('reads a workspace file', async () => {
    await writeFile(path.join(fake.workspaceDir, 'notes.md'), '# Notes\nbuy milk');
    expect(await readFileTool.execute(readFileTool.input.parse({ path: 'notes.md' }), fake.context)).toMatchObject({ ok: true, output: '# Notes\nbuy milk' });
  });

  it('cuts at maxBytes and says so', async () => {
    await writeFile(path.join(fake.workspaceDir, 'long.txt'), 'abcdefghij');
    const outcome = await readFileTool.execute({ path: 'long.txt', maxBytes: 4 }, fake.context);
    expect(outcome).toMatchObject({ ok: true, output: expect.stringMatching(/^abcd\n\[Cut: showed 4 of 10 bytes/) });
  });

  it('refuses ../ escapes, absolute paths outside and symbolic links pointing outside', async () => {
    await symlink(outside, path.join(fake.workspaceDir, 'link'));
    const relativeEscape = path.relative(fake.workspaceDir, path.join(outside, 'secret.txt'));
    for (const requested of [relativeEscape, path.join(outside, 'secret.txt'), 'link/secret.txt']) {
      const outcome = await readFileTool.execute({ path: requested }, fake.context);
      expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('outside the workspace') });
    }
  });

  it('allows an absolute path inside the workspace', async () => {
    await writeFile(path.join(fake.workspaceDir, 'inside.txt'), 'fine');
    expect(await readFileTool.execute({ path: path.join(fake.workspaceDir, 'inside.txt') }, fake.context)).toMatchObject({ ok: true, output: 'fine' });
  });
});
