import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { readProcessCpuMs } from '../../bench/read-process-cpu.js';

const onLinux = process.platform === 'linux';

describe.skipIf(!onLinux)('readProcessCpuMs', () => {
  it('counts the CPU a busy child used, and much less for one that slept as long', async () => {
    // Spins until it has used 400 ms of CPU (not of the clock, which a busy machine stretches), then says so.
    const spin = 'const start = process.cpuUsage().user; while (process.cpuUsage().user - start < 400_000); console.log("spun"); setInterval(() => {}, 1000)';
    const busy = spawn(process.execPath, ['-e', spin]);
    const sleeping = spawn(process.execPath, ['-e', 'console.log("up"); setInterval(() => {}, 1000)']);
    try {
      await Promise.all([once(busy.stdout, 'data'), once(sleeping.stdout, 'data')]);
      const busyMs = readProcessCpuMs(busy.pid as number);
      const sleepingMs = readProcessCpuMs(sleeping.pid as number);
      if (busyMs === undefined || sleepingMs === undefined) throw new Error('no CPU time read for a running child');
      // Both pay Node's start-up; only the busy one spun for 400 ms on top of it.
      expect(busyMs).toBeGreaterThanOrEqual(400);
      expect(busyMs - sleepingMs).toBeGreaterThanOrEqual(250);
    } finally {
      busy.kill('SIGKILL');
      sleeping.kill('SIGKILL');
    }
  });

  it('answers undefined for a process that is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    await once(child, 'exit');
    // Reaped by now: its /proc entry is gone.
    expect(readProcessCpuMs(child.pid as number)).toBeUndefined();
  });
});
