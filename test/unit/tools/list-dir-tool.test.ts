import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDirTool } from '../../../tools/list-dir-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('list_dir tool', () => {
  let fake: FakeToolServices;
  let outside: string;
  beforeEach(async () => {
    fake = await createFakeToolServices();
    outside = await mkdtemp(path.join(tmpdir(), 'echo-outside-'));
    await writeFile(path.join(outside, 'private.txt'), 'x');
  });
  afterEach(async () => {
    await fake.cleanup();
    await rm(outside, { recursive: true, force: true });
  });

  it('lists the workspace by default, folders with a slash and files with sizes', async () => {
    await mkdir(path.join(fake.workspaceDir, 'src'));
    await writeFile(path.join(fake.workspaceDir, 'readme.md'), 'hello');
    expect(await listDirTool.execute(listDirTool.input.parse({}), fake.context)).toMatchObject({ ok: true, output: 'readme.md (5 bytes)\nsrc/' });
  });

  it('refuses ../ escapes, absolute paths outside and symbolic links pointing outside', async () => {
    await symlink(outside, path.join(fake.workspaceDir, 'link'));
    for (const requested of ['..', path.relative(fake.workspaceDir, outside), outside, 'link']) {
      const outcome = await listDirTool.execute({ path: requested }, fake.context);
      expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('outside the workspace') });
    }
  });
});
