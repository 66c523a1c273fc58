import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCallCgroup, findPidsCgroupDir, removeCallCgroup, sweepOrphanedCallCgroups } from '../../tools/pids-cgroups.js';
import { findProcesses } from '../fakes/find-processes.js';
import { waitFor } from '../fakes/start-test-app.js';

const parent = findPidsCgroupDir();
if (parent === undefined) console.warn('orphaned sandboxes: skipped, this host gives the agent no pids cgroup to write');

/** A pid that ran and has exited: what a SIGKILLed agent's pid looks like to the next start. */
function deadPid(): number {
  const ran = spawnSync('/bin/true');
  return ran.pid ?? 1;
}

describe.skipIf(parent === undefined)('a command orphaned by a killed agent ends at the next start', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const folder of made.splice(0)) removeCallCgroup(folder, 0);
  });

  it('kills what is left in a dead agent\'s call cgroup and removes it, and leaves a live agent\'s call alone', async () => {
    const orphanFolder = join(parent ?? '', `${deadPid()}-1`);
    const liveFolder = createCallCgroup(parent, 16);
    if (liveFolder === undefined) throw new Error('could not make a call cgroup');
    made.push(orphanFolder, liveFolder);
    mkdirSync(orphanFolder);
    const orphan = spawn('sleep', ['41.0193'], { detached: true, stdio: 'ignore' });
    const live = spawn('sleep', ['41.0194'], { detached: true, stdio: 'ignore' });
    writeFileSync(join(orphanFolder, 'cgroup.procs'), String(orphan.pid));
    writeFileSync(join(liveFolder, 'cgroup.procs'), String(live.pid));
    try {
      // At least ours: a test run elsewhere on this host may have left a killed agent's call behind too.
      expect(sweepOrphanedCallCgroups(parent)).toBeGreaterThanOrEqual(1);
      await waitFor(async () => (await findProcesses('41.0193', { program: 'sleep' })).length === 0, 'the orphaned command to end', 10_000);
      await waitFor(() => !existsSync(orphanFolder), 'the orphaned cgroup to be removed', 10_000);
      expect(await findProcesses('41.0194', { program: 'sleep' })).toHaveLength(1);
      expect(existsSync(liveFolder)).toBe(true);
    } finally {
      orphan.kill('SIGKILL');
      live.kill('SIGKILL');
    }
  });
});

it('sweeping does nothing where there is no cgroup folder', () => {
  expect(sweepOrphanedCallCgroups(undefined)).toBe(0);
});
