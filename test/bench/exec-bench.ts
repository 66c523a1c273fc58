import { spawnSync } from 'node:child_process';
import { createExecTool } from '../../tools/exec-tool.js';
import { findExecutable } from '../../tools/exec-sandbox.js';
import { defaultExecPath } from '../../tools/exec-tool.js';
import { createFakeToolServices } from '../fakes/fake-tool-services.js';
import { median } from './bench-statistics.js';

/** How many calls of `true` each variant makes (after warm-up calls that are not measured). */
export type ExecBenchOptions = { readonly calls: number; readonly warmup: number };

/** Median milliseconds per `exec` of `true`: the whole tool (syntax check, deny-list, spawn, wait), without and with bubblewrap, and the bare spawns. */
export type ExecFigures = {
  readonly toolUnsandboxedMs: number;
  readonly toolBwrapMs: number;
  readonly spawnShellMs: number;
  readonly spawnBwrapMs: number;
  readonly bwrapPath: string;
};

/** Measures the sandbox's cost: exec of `true` through the tool and as bare spawns, sandbox off and on. */
export async function runExecBench(options: ExecBenchOptions): Promise<ExecFigures> {
  const bwrapPath = findExecutable('bwrap', defaultExecPath);
  if (bwrapPath === undefined) throw new Error('bwrap is not installed (apt-get install bubblewrap)');
  const services = await createFakeToolServices();
  try {
    const workspace = services.workspaceDir;
    const unsandboxed = createExecTool({ sandbox: { mode: 'off' } });
    const sandboxed = createExecTool({ sandbox: { mode: 'bwrap', bwrapPath, network: false, hiddenPaths: [] } });
    const timeTool = async (tool: typeof unsandboxed) => {
      const started = performance.now();
      const outcome = await tool.execute({ command: 'true' }, services.context);
      if (!outcome.ok) throw new Error(`exec true failed: ${outcome.error}`);
      return performance.now() - started;
    };
    const bwrapArgs = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', workspace, workspace, '--chdir', workspace, '/bin/sh', '-c', 'true'];
    const timeSpawn = (file: string, args: readonly string[]) => {
      const started = performance.now();
      const result = spawnSync(file, args, { env: { PATH: defaultExecPath } });
      if (result.status !== 0) throw new Error(`${file} exited ${result.status}: ${result.stderr?.toString()}`);
      return performance.now() - started;
    };
    const measure = async (once: () => Promise<number> | number) => {
      for (let index = 0; index < options.warmup; index += 1) await once();
      const times: number[] = [];
      for (let index = 0; index < options.calls; index += 1) times.push(await once());
      return median(times);
    };
    return {
      toolUnsandboxedMs: await measure(() => timeTool(unsandboxed)),
      toolBwrapMs: await measure(() => timeTool(sandboxed)),
      spawnShellMs: await measure(() => timeSpawn('/bin/sh', ['-c', 'true'])),
      spawnBwrapMs: await measure(() => timeSpawn(bwrapPath, bwrapArgs)),
      bwrapPath,
    };
  } finally {
    await services.cleanup();
  }
}
