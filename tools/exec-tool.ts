import { spawn } from 'node:child_process';
import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import type { ToolContext } from '../src/registry/tool-context.js';
import type { ToolOutcome } from '../src/registry/tool-outcome.js';
import { isCatastrophicCommand } from './catastrophic-commands.js';

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
  return defineTool({
    name: 'exec',
    description:
      'Run a shell command in the workspace folder and return its combined output and exit code. Use it for builds, ' +
      'scripts, git and file inspection the file tools cannot do. Every call needs a person to approve it. Commands ' +
      `run without secrets in their environment, are killed at their timeout, and output is cut at ${execOutputLimit} characters.`,
    input,
    risk: 'exec',
    approval: 'always',
    sideEffects: true,
    timeoutMs: 310_000,
    describeForApproval: (call) => `Run in the workspace (timeout ${call.timeoutSec ?? 30} s): ${call.command}`,
    execute: async (call, context) => {
      const catastrophe = isCatastrophicCommand(call.command);
      if (catastrophe !== undefined) return { ok: false, kind: 'business', error: `This command is never run: ${catastrophe}` };
      return runCommand(call.command, (call.timeoutSec ?? 30) * 1_000, buildEnvironment(options, context), context);
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

function runCommand(command: string, timeoutMs: number, environment: Record<string, string>, context: ToolContext): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    if (context.signal.aborted) {
      resolve({ ok: false, kind: 'infrastructure', error: 'The call was cancelled before the command started.' });
      return;
    }
    // detached: the shell leads its own process group, so one kill reaches everything it started.
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: context.services.workspaceDir,
      env: environment,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      // Nothing a command started outlives the call.
      killGroup();
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
  const status = code === null ? `killed by ${run.exit?.signal ?? 'a signal'}` : `exit code ${code}`;
  return {
    ok: true,
    output: `[${status}]\n${text}`.trimEnd(),
    metadata: { exitCode: code, signal: run.exit?.signal ?? null, truncated: run.droppedCharacters > 0 },
  };
}
