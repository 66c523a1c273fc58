// Cluster mode: a process that dies (SIGKILL) holding a turn's job stops heartbeating; another instance runs the
// turn again, marked as a re-run. The dying process is real: the compiled queue bus in a child process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCluster } from '../../../src/cluster/open-cluster.js';
import type { InboundEvent } from '../../../src/events/inbound-event.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { messageIn } from '../../contracts/bus-contract.js';
import { createScratchDatabase, isPostgresUp } from '../../contracts/scratch-postgres.js';
import { ensureBuilt, repositoryRoot } from '../../fakes/run-compiled.js';
import { waitFor } from '../../fakes/start-test-app.js';

const up = await isPostgresUp();
let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
beforeAll(async () => {
  ensureBuilt();
  if (up) database = await createScratchDatabase();
}, 180_000);
afterAll(async () => {
  await database?.drop();
});

// Takes jobs and never finishes them, printing each event id it took.
const holder = `
const { openCluster } = await import(${JSON.stringify(join(repositoryRoot, 'dist', 'src', 'cluster', 'open-cluster.js'))});
const { createLogger } = await import(${JSON.stringify(join(repositoryRoot, 'dist', 'src', 'logging', 'create-logger.js'))});
const logger = await createLogger({ level: 'silent', pretty: false });
const cluster = await openCluster({ url: process.argv[1], maxConcurrentTurns: 4, heartbeatSeconds: 10, leaderCheckSeconds: 3, turnTimeoutMs: 300000, logger });
cluster.bus.subscribe(async (event) => { process.stdout.write('took ' + event.id + '\\n'); await new Promise(() => {}); });
process.stdout.write('ready\\n');
`;

describe.skipIf(!up)(`a killed instance's turn${up ? '' : ' (skipped: PostgreSQL is not running on 127.0.0.1:5432)'}`, () => {
  it('moves to another instance after its heartbeat lapses, as a re-run, once', async () => {
    const url = database?.url ?? '';
    const child = spawn(process.execPath, ['--input-type=module', '-e', holder, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const logger = await createLogger({ level: 'silent', pretty: false });
    const survivor = await openCluster({ url, maxConcurrentTurns: 4, heartbeatSeconds: 10, leaderCheckSeconds: 3, turnTimeoutMs: 300_000, logger });
    const handled: InboundEvent[] = [];
    try {
      await waitFor(() => (output.includes('ready') ? true : undefined), 'the holding process to start', 30_000);
      const event = messageIn(`telegram:${Math.random()}`, 'held by a process that dies');
      await survivor.bus.publish(event);
      await waitFor(() => (output.includes(`took ${event.id}`) ? true : undefined), 'the holding process to take the job', 30_000);
      child.kill('SIGKILL');
      await exited;
      survivor.bus.subscribe(async (taken) => void handled.push(taken));
      await waitFor(() => (handled.length > 0 ? true : undefined), 'the surviving instance to run the turn', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(handled.map((taken) => ({ id: taken.id, redelivered: taken.redelivered }))).toEqual([{ id: event.id, redelivered: true }]);
    } finally {
      child.kill('SIGKILL');
      await survivor.bus.drain(1000);
      await survivor.close();
    }
  }, 120_000);
});
