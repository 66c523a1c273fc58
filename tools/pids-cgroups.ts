import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
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
