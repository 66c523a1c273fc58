import { existsSync } from 'node:fs';
import { link, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../tools/edit-file-tool.js';
import { listDirTool } from '../../tools/list-dir-tool.js';
import { readFileTool } from '../../tools/read-file-tool.js';
import { writeFileTool } from '../../tools/write-file-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../fakes/fake-tool-services.js';
import { startTestApp, type TestApp } from '../fakes/start-test-app.js';

describe('the workspace on a fresh data folder (finding 5)', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => testApp?.stop());

  it('exists once the app has started, so file tools and exec work from the first message', async () => {
    testApp = await startTestApp({ environment: { ECHO_DATA_DIR: path.join(await mkdtemp(path.join(tmpdir(), 'echo-fresh-')), 'never-created') } });
    const workspaceDir = testApp.app.config.tools.workspaceDir ?? '';
    expect(existsSync(workspaceDir)).toBe(true);
    const fake = await createFakeToolServices();
    const context = { ...fake.context, services: { ...fake.services, workspaceDir } };
    expect(await listDirTool.execute({}, context)).toMatchObject({ ok: true, output: 'The workspace is empty.' });
    await fake.cleanup();
  });
});

describe('hard links out of the workspace (finding 7)', () => {
  let fake: FakeToolServices | undefined;
  let outside: string | undefined;
  afterEach(async () => {
    await fake?.cleanup();
    if (outside !== undefined) await rm(outside, { recursive: true, force: true });
  });

  async function linkedOutsideFile(): Promise<{ outsideFile: string; context: FakeToolServices['context'] }> {
    fake = await createFakeToolServices();
    // Same file system as the workspace (both under tmpdir), as a hard link needs.
    outside = await mkdtemp(path.join(tmpdir(), 'echo-outside-'));
    const outsideFile = path.join(outside, 'secret.txt');
    await writeFile(outsideFile, 'outside secret');
    await link(outsideFile, path.join(fake.workspaceDir, 'innocent.txt'));
    return { outsideFile, context: fake.context };
  }

  it('read_file refuses a file with more than one hard link', async () => {
    const { context } = await linkedOutsideFile();
    const outcome = await readFileTool.execute({ path: 'innocent.txt' }, context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('hard links') });
  });

  it('write_file and edit_file refuse it and leave the outside file as it was', async () => {
    const { outsideFile, context } = await linkedOutsideFile();
    expect(await writeFileTool.execute({ path: 'innocent.txt', content: 'overwritten' }, context)).toMatchObject({ ok: false, error: expect.stringContaining('hard links') });
    expect(await editFileTool.execute({ path: 'innocent.txt', oldText: 'outside', newText: 'edited' }, context)).toMatchObject({ ok: false, error: expect.stringContaining('hard links') });
    expect(await readFile(outsideFile, 'utf8')).toBe('outside secret');
  });
});
