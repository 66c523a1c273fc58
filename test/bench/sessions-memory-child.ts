// Child process of the memory benchmark: N sessions each send one message through the pipeline, then
// this process reports its own resident memory on stdout as one JSON line. With `retained` as the third
// argument it reports instead what the sessions left on the heap once garbage is collected.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { driveClosedLoop, intakeOf } from './drive-turns.js';
import { createInstantModel } from './instant-model.js';
import { readProcessMemory } from './read-process-memory.js';
import { startBenchApp } from './start-bench-app.js';

const sessions = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.argv[3] ?? 200);
const retained = process.argv[4] === 'retained';
const bench = await startBenchApp({ model: createInstantModel() });
if (retained) {
  // The heap in use after a full collection before and after the sessions: what they keep alive, whatever the
  // collector's timing (resident memory depends on when its last full collection happened to run).
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const heapAfterCollecting = async () => {
    // Twice, a tick apart: finalizers and weak references freed by the first go in the second.
    collect();
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    return process.memoryUsage().heapUsed;
  };
  // Some sessions first, so compiled code and caches that fill once are in the baseline, not in the figure.
  await driveClosedLoop(bench.app, { sessions: 300, concurrency, durationMs: Number.POSITIVE_INFINITY, maxTurns: 300, chatPrefix: 'warm-' });
  const before = await heapAfterCollecting();
  const result = await driveClosedLoop(bench.app, { sessions, concurrency, durationMs: Number.POSITIVE_INFINITY, maxTurns: sessions, chatPrefix: 'memory-' });
  const after = await heapAfterCollecting();
  process.stdout.write(`${JSON.stringify({ sessions, retainedBytesPerSession: (after - before) / sessions, heapUsedMb: after / 1024 / 1024, notCompleted: result.notCompleted })}\n`);
} else {
  const before = readProcessMemory(process.pid);
  const result = await driveClosedLoop(bench.app, { sessions, concurrency, durationMs: Number.POSITIVE_INFINITY, maxTurns: sessions, chatPrefix: 'memory-' });
  const after = readProcessMemory(process.pid);
  process.stdout.write(
    `${JSON.stringify({ sessions, startedRssMb: before?.rssMb, rssMb: after?.rssMb, peakRssMb: after?.peakRssMb, elapsedMs: result.elapsedMs, notCompleted: result.notCompleted, durableIntake: intakeOf(bench.app).durable })}\n`,
  );
}
await bench.stop();
