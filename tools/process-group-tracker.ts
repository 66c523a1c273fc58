/**
 * The process groups tools have started and not yet seen end, so the app can kill them all when
 * it stops: a command never outlives the agent that ran it.
 */
export interface ProcessGroupTracker {
  /** Remembers a live process group by its leader's pid. */
  add(groupLeaderPid: number): void;
  /** Forgets a group that ended. */
  remove(groupLeaderPid: number): void;
  /** How many groups are live. */
  size(): number;
  /** Sends SIGKILL to every live group and forgets them; returns how many were killed. */
  killAll(): number;
}

/** Creates an empty tracker; the composition root makes one and gives it to every tool that starts processes. */
export function createProcessGroupTracker(): ProcessGroupTracker {
  const groups = new Set<number>();
  return {
    add: (groupLeaderPid) => void groups.add(groupLeaderPid),
    remove: (groupLeaderPid) => void groups.delete(groupLeaderPid),
    size: () => groups.size,
    killAll() {
      const killed = groups.size;
      for (const pid of groups) killProcessGroup(pid);
      groups.clear();
      return killed;
    },
  };
}

/** SIGKILLs a whole process group; a group that is already gone is fine. */
export function killProcessGroup(groupLeaderPid: number): void {
  try {
    process.kill(-groupLeaderPid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}
