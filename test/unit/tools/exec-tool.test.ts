import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createExecTool, execOutputLimit, execTool } from '../../../tools/exec-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';
import { findProcesses } from '../../fakes/find-processes.js';

describe('exec tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('runs a command in the workspace and returns its output and exit code', async () => {
    fake = await createFakeToolServices();
    const outcome = await execTool.execute(execTool.input.parse({ command: 'echo hi && pwd' }), fake.context);
    expect(outcome).toMatchObject({ ok: true, output: `[exit code 0]\nhi\n${fake.workspaceDir}`, metadata: { exitCode: 0 } });
  });

  it('reports a non-zero exit code with stderr', async () => {
    fake = await createFakeToolServices();
    const outcome = await execTool.execute({ command: 'echo oops >&2; exit 3' }, fake.context);
    expect(outcome).toMatchObject({ ok: true, output: '[exit code 3]\noops', metadata: { exitCode: 3 } });
  });

  it('kills the command and everything it started at the timeout', async () => {
    fake = await createFakeToolServices();
    // A unique duration names the child on the host, whatever pid it has inside the sandbox.
    const outcome = await execTool.execute({ command: 'sleep 10.0731 & echo $! > sleep.pid; wait', timeoutSec: 1 }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('timed out after 1 s and was killed') });
    const pid = Number((await readFile(path.join(fake.workspaceDir, 'sleep.pid'), 'utf8')).trim());
    expect(pid).toBeGreaterThan(0);
    expect(await findProcesses('sleep 10.0731')).toEqual([]);
  });

  it('kills the command when the call is aborted', async () => {
    const controller = new AbortController();
    fake = await createFakeToolServices({ signal: controller.signal });
    const running = execTool.execute({ command: 'echo started; sleep 10' }, fake.context);
    setTimeout(() => controller.abort(), 100);
    expect(await running).toMatchObject({ ok: false, kind: 'infrastructure', error: expect.stringContaining('cancelled') });
  });

  it('passes no secrets: only PATH, HOME, LANG and TZ reach the command', async () => {
    process.env.ECHO_TEST_SECRET = 'hunter2';
    try {
      fake = await createFakeToolServices();
      const tool = createExecTool({ environment: { PATH: '/usr/bin:/bin', API_TOKEN: 'abc', LANG: 'C.UTF-8' } });
      const outcome = await tool.execute({ command: 'env' }, fake.context);
      expect(outcome.ok).toBe(true);
      const output = outcome.ok ? outcome.output : '';
      expect(output).not.toContain('hunter2');
      expect(output).not.toContain('API_TOKEN');
      const names = output.split('\n').slice(1).map((line) => line.split('=')[0]).filter((name) => name !== 'PWD' && name !== 'SHLVL' && name !== '_');
      expect(names.sort()).toEqual(['HOME', 'LANG', 'PATH', 'TZ']);
    } finally {
      delete process.env.ECHO_TEST_SECRET;
    }
  });

  it('cuts long output and says so', async () => {
    fake = await createFakeToolServices();
    const outcome = await execTool.execute({ command: `head -c ${execOutputLimit + 5000} /dev/zero | tr '\\0' a` }, fake.context);
    expect(outcome).toMatchObject({ ok: true, output: expect.stringContaining('[Output cut: 5000 more characters were not shown.]'), metadata: { truncated: true } });
  });

  it('refuses catastrophic commands without running them', async () => {
    fake = await createFakeToolServices();
    const outcome = await execTool.execute({ command: 'touch ran.txt; rm -rf / --no-preserve-root' }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('never run') });
    await expect(readFile(path.join(fake.workspaceDir, 'ran.txt'))).rejects.toThrow();
  });

  it('is declared as exec risk that always asks', () => {
    expect(execTool).toMatchObject({ risk: 'exec', approval: 'always', sideEffects: true });
  });
});
