import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import type { ToolContext } from '../src/registry/tool-context.js';
import type { ToolOutcome } from '../src/registry/tool-outcome.js';
import { isCatastrophicCommand } from './catastrophic-commands.js';
import { describeShellSyntaxError } from './check-shell-syntax.js';
import { buildSandboxedCommand, type ExecSandbox, findExecutable, type SandboxedCommand, type SandboxLimits } from './exec-sandbox.js';
import { createCallCgroup, removeCallCgroup } from './pids-cgroups.js';
import { killProcessGroup, type ProcessGroupTracker } from './process-group-tracker.js';

/** Characters of combined stdout and stderr the model sees. */
export const execOutputLimit = 16_000;

/** The PATH commands get when the composition root passes none. */
export const defaultExecPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

// Only these variables reach a command, and never one whose name suggests a secret.
const passedVariables = ['PATH', 'HOME', 'LANG', 'TZ'] as const;
const secretName = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH/i;
// After a kill, wait this long for pipes held by escaped processes before giving up on them.
const pipeGraceMs = 2_000;

/** Options for the exec tool: the base environment comes from config, never from process.env here. */
export type ExecToolOptions = {
  /** Candidate variables (for example PATH from config); filtered down to PATH, HOME, LANG and TZ. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** How commands are confined; default bubblewrap found on the default PATH, no network, nothing hidden. */
  readonly sandbox?: ExecSandbox;
  /** Where live process groups are registered, so the app kills them when it stops. */
  readonly tracker?: ProcessGroupTracker;
  /** Memory, CPU time and process ceilings of each command (tools.limits); none when absent. */
  readonly limits?: SandboxLimits;
};

const input = z.object({
  command: z.string().min(1).max(8_000).describe('The shell command to run with /bin/sh -c in the workspace folder.'),
  timeoutSec: z
    .number()
    .int()
    .min(1)
    .max(300)
    .optional()
    .describe('Seconds before the command and everything it started are killed (1-300, default 30).'),
});

/** Creates the exec tool; `environment` supplies PATH, HOME, LANG or TZ when the defaults do not fit. */
export function createExecTool(options: ExecToolOptions = {}) {
  const sandbox: ExecSandbox = options.sandbox ?? { mode: 'bwrap', bwrapPath: findExecutable('bwrap', defaultExecPath), network: false, hiddenPaths: [] };
  return defineTool({
    name: 'exec',
    description:
      'Run a shell command in the workspace folder and return its combined output and exit code. Use it for builds, ' +
      'scripts, git and file inspection the file tools cannot do. Every call needs a person to approve it. Commands ' +
      `run in a sandbox without secrets in their environment, are killed at their timeout, and output is cut at ${execOutputLimit} characters.`,
    input,
    risk: 'exec',
    approval: 'always',
    sideEffects: true,
    timeoutMs: 310_000,
    describeForApproval: (call) => `Run in the workspace (timeout ${call.timeoutSec ?? 30} s): ${call.command}`,
    execute: async (call, context) => {
      const syntaxError = await describeShellSyntaxError(call.command);
      if (syntaxError !== undefined) return { ok: false, kind: 'business', error: syntaxError };
      const catastrophe = isCatastrophicCommand(call.command, { workingDirectory: context.services.workspaceDir });
      if (catastrophe !== undefined) return { ok: false, kind: 'business', error: `This command is never run: ${catastrophe}` };
      if (!existsSync(context.services.workspaceDir)) return { ok: false, kind: 'business', error: `The workspace folder ${context.services.workspaceDir} does not exist.` };
      const cgroupDir = createCallCgroup(sandbox.enforcement?.pidsCgroupDir, options.limits?.processes ?? 0);
      try {
        const built = buildSandboxedCommand({ sandbox, command: call.command, workspaceDir: context.services.workspaceDir, limits: options.limits, cgroupDir });
        if (!built.ok) return { ok: false, kind: 'business', error: built.error };
        return await runCommand({ command: built.command, timeoutMs: (call.timeoutSec ?? 30) * 1_000, environment: buildEnvironment(options, context), context, tracker: options.tracker });
      } finally {
        removeCallCgroup(cgroupDir);
      }
    },
  });
}

/** exec: runs a shell command in the workspace (approval always). */
export const execTool = createExecTool();

function buildEnvironment(options: ExecToolOptions, context: ToolContext): Record<string, string> {
  const candidates: Record<string, string | undefined> = {
    PATH: defaultExecPath,
    HOME: context.services.workspaceDir,
    LANG: 'C.UTF-8',
    TZ: context.services.timezone,
    ...options.environment,
  };
  const environment: Record<string, string> = {};
  for (const name of passedVariables) {
    const value = candidates[name];
    if (value !== undefined && !secretName.test(name)) environment[name] = value;
  }
  return environment;
}

type RunRequest = {
  readonly command: SandboxedCommand;
  readonly timeoutMs: number;
  readonly environment: Record<string, string>;
  readonly context: ToolContext;
  readonly tracker?: ProcessGroupTracker;
};

function runCommand(request: RunRequest): Promise<ToolOutcome> {
  const { command, timeoutMs, environment, context, tracker } = request;
  return new Promise((resolve) => {
    if (context.signal.aborted) {
      resolve({ ok: false, kind: 'infrastructure', error: 'The call was cancelled before the command started.' });
      return;
    }
    // detached: the shell (or bwrap) leads its own process group, so one kill reaches everything it started.
    const child = spawn(command.file, [...command.args], {
      cwd: context.services.workspaceDir,
      env: environment,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const groupLeader = child.pid;
    if (groupLeader !== undefined) tracker?.add(groupLeader);
    let output = '';
    let droppedCharacters = 0;
    let stopReason: 'timeout' | 'aborted' | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const collect = (text: string): void => {
      const room = execOutputLimit - output.length;
      output += text.slice(0, Math.max(0, room));
      droppedCharacters += Math.max(0, text.length - Math.max(0, room));
    };
    // setEncoding keeps multi-byte characters split across chunks intact.
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', collect);

    const killGroup = (): void => {
      if (groupLeader !== undefined) killProcessGroup(groupLeader);
    };
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      // Nothing a command started outlives the call.
      killGroup();
      if (groupLeader !== undefined) tracker?.remove(groupLeader);
      resolve(describeRun({ output, droppedCharacters, stopReason, exit, timeoutMs }));
    };
    const stop = (reason: 'timeout' | 'aborted'): void => {
      stopReason ??= reason;
      killGroup();
      // A process that left the group may still hold the pipes; do not wait for it forever.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, pipeGraceMs).unref();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = (): void => stop('aborted');
    context.signal.addEventListener('abort', onAbort, { once: true });

    child.on('exit', (code, signal) => {
      exit = { code, signal };
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish();
    });
    child.on('error', (error) => {
      if (groupLeader !== undefined) tracker?.remove(groupLeader);
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      resolve({ ok: false, kind: 'infrastructure', error: `The shell could not be started: ${error.message}` });
    });
  });
}

type RunSummary = {
  readonly output: string;
  readonly droppedCharacters: number;
  readonly stopReason: 'timeout' | 'aborted' | undefined;
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly timeoutMs: number;
};

function describeRun(run: RunSummary): ToolOutcome {
  const note = run.droppedCharacters > 0 ? `\n[Output cut: ${run.droppedCharacters} more characters were not shown.]` : '';
  const text = `${run.output}${note}`;
  if (run.stopReason === 'timeout') {
    return { ok: false, kind: 'business', error: `The command timed out after ${run.timeoutMs / 1_000} s and was killed.\n${text}`.trimEnd() };
  }
  if (run.stopReason === 'aborted') {
    return { ok: false, kind: 'infrastructure', error: `The call was cancelled and the command was killed.\n${text}`.trimEnd() };
  }
  const code = run.exit?.code ?? null;
  // In the sandbox the shell reports a child killed by SIGXCPU (24) as exit code 128 + 24.
  const cpuLimit = run.exit?.signal === 'SIGXCPU' || code === 152 ? ': killed by SIGXCPU, its CPU time limit (tools.limits.cpuSeconds) was reached' : '';
  const status = `${code === null ? `killed by ${run.exit?.signal ?? 'a signal'}` : `exit code ${code}`}${cpuLimit}`;
  return {
    ok: true,
    output: `[${status}]\n${text}`.trimEnd(),
    metadata: { exitCode: code, signal: run.exit?.signal ?? null, truncated: run.droppedCharacters > 0 },
  };
}
