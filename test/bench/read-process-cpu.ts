import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second, in which /proc reports CPU time (`getconf CLK_TCK`; 100 where it cannot be asked). */
function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      const answer = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      ticksPerSecond = Number.isFinite(answer) && answer > 0 ? answer : 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * The CPU time a process has used so far, user and system, all its threads (the event loop, libuv's pool, V8's
 * helpers), in milliseconds, from /proc/<pid>/stat (Linux); undefined when the process is gone or /proc is missing.
 */
export function readProcessCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the line (utime, stime) are the 12th and 13th after the name.
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  return ((user + system) * 1000) / clockTicksPerSecond();
}
