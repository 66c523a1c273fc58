import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Projects, routed by file name and content, never by a list kept by hand:
 * - `slow` (`npm run test:slow`): every `*.slow.test.ts` (real processes, the bench, the demo, real-clock waits)
 *   except the chaos runs.
 * - `chaos` (`npm run chaos`, and after `slow` in `npm run test:slow`): `test/chaos/`, run on its own, because its
 *   three agent processes would starve the slow suite's timed waits on two cores.
 * - `fast` (`npm test`): every other `*.test.ts`, in workers that keep their module cache between files
 *   (importing the app once per worker instead of once per file is most of the time saved). Four workers on
 *   two cores: these files mostly wait on sockets, timers and PostgreSQL, so one worker per core left half the
 *   run idle (63 s against 34 s, when the suite was smaller); at 258 files, three workers took 71-79 s of which
 *   0.9 core was busy, four take 53-57 s (five: 54 s, for more CPU spent importing).
 * - `fast-isolated` (also `npm test`): the fast files that replace modules (`vi.mock`, `vi.doMock`),
 *   each in a fresh module graph, so the replacement never leaks into another file.
 */
const slowFiles = 'test/**/*.slow.test.ts';
const chaosFiles = 'test/chaos/**/*.slow.test.ts';
const installed = '**/node_modules/**';

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    // test/mcp-conformance/ has a package of its own: its node_modules hold other projects' tests.
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') && !entry.name.endsWith('.slow.test.ts') ? [path] : [];
  });
}

const replacesModules = testFiles('test').filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [installed, slowFiles, ...replacesModules], isolate: false, maxWorkers: 4 } },
      { extends: true, test: { name: 'fast-isolated', include: replacesModules.length > 0 ? replacesModules : ['no-file-replaces-modules'] } },
      { extends: true, test: { name: 'slow', include: [slowFiles], exclude: [installed, chaosFiles] } },
      { extends: true, test: { name: 'chaos', include: [chaosFiles] } },
    ],
  },
});
