import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const pidsHierarchy = '/sys/fs/cgroup/pids';
let sequence = 0;

/**
 * The folder under which each sandboxed call gets its own pids cgroup, when this host has a cgroup v1 pids hierarchy
 * the agent may write (root in a VM or a privileged container); undefined elsewhere (cgroup v2 without delegation,
 * an unprivileged user), where only RLIMIT_NPROC limits processes.
 */
export function findPidsCgroupDir(): string | undefined {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[1]?.split(',').includes('pids'));
    if (line === undefined) return undefined;
    const own = line.split(':').slice(2).join(':');
    const folder = path.join(pidsHierarchy, own, 'echo-agent');
    mkdirSync(folder, { recursive: true });
    return folder;
  } catch {
    return undefined;
  }
}

/** Makes one call's cgroup with at most `processes` tasks; undefined when it cannot (then RLIMIT_NPROC alone holds). */
export function createCallCgroup(parent: string | undefined, processes: number): string | undefined {
  if (parent === undefined || processes <= 0) return undefined;
  sequence += 1;
  const folder = path.join(parent, `${process.pid}-${sequence}`);
  try {
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'pids.max'), String(processes));
    return folder;
  } catch {
    removeCallCgroup(folder);
    return undefined;
  }
}

/** Removes a call's cgroup once its last process is gone (retried a few times while the killed ones exit). */
export function removeCallCgroup(folder: string | undefined, attemptsLeft = 10): void {
  if (folder === undefined) return;
  try {
    rmdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EBUSY' && attemptsLeft > 0) setTimeout(() => removeCallCgroup(folder, attemptsLeft - 1), 500).unref();
  }
}

/**
 * Kills what is left in the call cgroups of agent processes that no longer run, and removes those cgroups. An agent
 * SIGKILLed in the instant between spawning a sandboxed call and bwrap setting its parent-death signal leaves the call
 * running with nobody to time it out; the next start ends it. Returns how many processes it killed.
 */
export function sweepOrphanedCallCgroups(parent: string | undefined): number {
  if (parent === undefined) return 0;
  let killed = 0;
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const owner = /^(\d+)-\d+$/.exec(entry)?.[1];
    // Only cgroups this naming made, of an agent that is gone (another instance on this host keeps its own).
    if (owner === undefined || isRunning(Number(owner))) continue;
    const folder = path.join(parent, entry);
    for (const pid of readProcesses(folder)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed += 1;
      } catch {
        // Already gone.
      }
    }
    removeCallCgroup(folder);
  }
  return killed;
}

function readProcesses(folder: string): number[] {
  try {
    return readFileSync(path.join(folder, 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((line) => /^\d+$/.test(line))
      .map(Number);
  } catch {
    return [];
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
