import { readFileSync } from 'node:fs';

/** Resident memory of a process, from /proc/<pid>/status, in megabytes (MiB). */
export type ProcessMemory = {
  /** VmRSS: resident now. */
  readonly rssMb: number;
  /** VmHWM: the highest resident size so far (the peak). */
  readonly peakRssMb: number;
};

/** Reads VmRSS and VmHWM of a process (Linux); undefined when the process is gone or /proc is missing. */
export function readProcessMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  const rss = kilobytes('VmRSS');
  if (Number.isNaN(rss)) return undefined;
  return { rssMb: rss / 1024, peakRssMb: kilobytes('VmHWM') / 1024 };
}
