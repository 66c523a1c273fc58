import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobStore } from '../../../src/scheduler/job-store.js';
import { parseArguments } from '../../../src/app/parse-arguments.js';
import { runCron } from '../../../src/cli/run-cron.js';
import { createStore } from '../../../src/store/create-store.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'echo-run-cron-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function capture() {
  let text = '';
  return {
    write(chunk: string) {
      text += chunk;
    },
    text: () => text,
  };
}

describe('npm run cron -- list', () => {
  it('prints config and stored jobs with schedule, zone, target, next run and last status, without a model key', async () => {
    const dataDir = join(folder, 'data');
    const store = await createStore({ dataDir });
    await createJobStore(store).put({
      id: 'task-abc',
      schedule: '0 7 * * *',
      timezone: 'Asia/Tokyo',
      prompt: 'p',
      target: { channel: 'telegram', chatId: '5' },
      source: 'tool',
      createdBy: '5',
      createdAt: '2030-01-01T00:00:00Z',
      catchUp: 'skip',
      lastRun: { startedAt: '2030-01-01T07:00:00Z', finishedAt: '2030-01-01T07:00:05Z', status: 'failed', delivered: false, deliveryError: 'chat not found' },
    });
    await store.close();
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, [`storage:`, `  dataDir: ${dataDir}`, 'cron:', '  jobs:', "    - { id: morning, schedule: '0 9 * * 1-5', prompt: news, target: 'cli:local', timezone: Europe/Paris }"].join('\n'));

    const output = capture();
    const errors = capture();
    const code = await runCron(parseArguments(['cron', 'list', '--config', configFile]), output, errors);
    expect(errors.text()).toBe('');
    expect(code).toBe(0);
    const text = output.text();
    expect(text).toContain('morning  0 9 * * 1-5  (Europe/Paris)  → cli:local  [config]');
    expect(text).toMatch(/morning[\s\S]*next: \d{4}-\d\d-\d\dT\d\d:00:00\.000Z[\s\S]*last: never ran/);
    expect(text).toContain('task-abc  0 7 * * *  (Asia/Tokyo)  → telegram:5  [tool]');
    expect(text).toContain('last: failed at 2030-01-01T07:00:00Z: not delivered: chat not found');
  });

  it('refuses an unknown subcommand', async () => {
    const errors = capture();
    expect(await runCron(parseArguments(['cron', 'purge']), capture(), errors)).toBe(2);
    expect(errors.text()).toContain('Unknown cron command "purge"');
  });
});
