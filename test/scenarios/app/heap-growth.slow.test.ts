// `runtime.heapGrowthPercent` as `start` applies it (src/app/apply-heap-growth.ts): each child process below applies
// a percent, keeps about 120 MB alive and promotes short-lived garbage into the old generation (objects that outlive
// a few scavenges), then reports the largest the old generation got and what a full collection leaves.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repositoryRoot } from '../../fakes/run-compiled.js';

const run = promisify(execFile);

const churn = `
import { getHeapSpaceStatistics } from 'node:v8';
const percent = Number(process.argv[1]);
(await import(process.argv[2])).applyHeapGrowth(percent);
const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
const live = Array.from({ length: 300 }, () => Array.from({ length: 10_000 }, (_, index) => ({ index })));
const recent = [];
let largest = 0;
for (let round = 0; round < 400; round += 1) {
  recent.push(Array.from({ length: 20_000 }, (_, index) => ({ round, index })));
  if (recent.length > 8) recent.shift();
  if (round % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
  largest = Math.max(largest, oldSpace().space_size);
}
globalThis.gc();
process.stdout.write(JSON.stringify({ largest, live: oldSpace().space_used_size, kept: live.length + recent.length }));
`;

async function oldGenerationWith(percent: number): Promise<{ largest: number; live: number }> {
  const module = join(repositoryRoot, 'dist', 'src', 'app', 'apply-heap-growth.js');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', churn, String(percent), module], { timeout: 60_000 });
  return JSON.parse(stdout) as { largest: number; live: number };
}

beforeAll(() => ensureBuilt(), 120_000);

describe('runtime.heapGrowthPercent', () => {
  it('bounds how far the old generation grows past what it keeps, and the setting decides it', async () => {
    const [tight, standard, loose] = await Promise.all([oldGenerationWith(10), oldGenerationWith(50), oldGenerationWith(300)]);
    // The same work, the same live data: only the factor differs.
    expect(Math.abs(tight.live - loose.live) / loose.live).toBeLessThan(0.1);
    expect(tight.largest).toBeLessThan(standard.largest);
    expect(standard.largest).toBeLessThan(loose.largest);
    // The default (50 %): the old generation stays under twice what it keeps (V8's own sizing went to 2.4-2.6 here).
    expect(standard.largest / standard.live).toBeLessThan(2);
  }, 90_000);
});
