import { readdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';

/** Narrows {@link findProcesses} to one program. */
export type FindProcessesOptions = {
  /** Only processes running this program (the base name of their argv[0]), e.g. `sleep` rather than the shell, env or bwrap whose command lines also name it. */
  readonly program?: string;
};

/** Host pids of live (not zombie) processes whose command line contains `fragment`; reads /proc, so it sees through PID namespaces. */
export async function findProcesses(fragment: string, options: FindProcessesOptions = {}): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const argumentsList = commandLine.split('\0');
    if (!argumentsList.join(' ').includes(fragment)) continue;
    if (options.program !== undefined && basename(argumentsList[0] ?? '') !== options.program) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat === '' || /^\d+ \(.*\) Z/.test(stat)) continue;
    found.push(Number(entry));
  }
  return found;
}
