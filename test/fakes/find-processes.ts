import { readdir, readFile } from 'node:fs/promises';

/** Host pids of live (not zombie) processes whose command line contains `fragment`; reads /proc, so it sees through PID namespaces. */
export async function findProcesses(fragment: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!commandLine.split('\0').join(' ').includes(fragment)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat === '' || /^\d+ \(.*\) Z/.test(stat)) continue;
    found.push(Number(entry));
  }
  return found;
}
