// Child process of the memory benchmark: N sessions each send one message through the pipeline, then
// this process reports its own resident memory on stdout as one JSON line.
import { driveClosedLoop, intakeOf } from './drive-turns.js';
import { createInstantModel } from './instant-model.js';
import { readProcessMemory } from './read-process-memory.js';
import { startBenchApp } from './start-bench-app.js';

const sessions = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.argv[3] ?? 200);
const bench = await startBenchApp({ model: createInstantModel() });
const before = readProcessMemory(process.pid);
const result = await driveClosedLoop(bench.app, { sessions, concurrency, durationMs: Number.POSITIVE_INFINITY, maxTurns: sessions, chatPrefix: 'memory-' });
const after = readProcessMemory(process.pid);
process.stdout.write(
  `${JSON.stringify({ sessions, startedRssMb: before?.rssMb, rssMb: after?.rssMb, peakRssMb: after?.peakRssMb, elapsedMs: result.elapsedMs, notCompleted: result.notCompleted, durableIntake: intakeOf(bench.app).durable })}\n`,
);
await bench.stop();
