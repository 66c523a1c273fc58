import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scheduler, StoredJob } from '../../../src/scheduler/index.js';
import type { App } from '../../../src/app/create-app.js';
import type { ScriptedHandler, ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';

/** The app's running cron channel. */
export function cronOf(app: App): Scheduler {
  const channel = app.channels.get('cron') as Scheduler | undefined;
  if (!channel) throw new Error('the cron channel is not running');
  return channel;
}

/** One stored job by id, as the scheduler keeps it (run history included). */
export async function storedJob(app: App, jobId: string): Promise<StoredJob | undefined> {
  return (await cronOf(app).jobs()).find((job) => job.id === jobId);
}

/** Waits until a job's last run has finished (not running) and returns the job. */
export function waitForFinishedRun(app: App, jobId: string, what: string, timeoutMs = 10_000): Promise<StoredJob> {
  return waitFor(
    async () => {
      const job = await storedJob(app, jobId);
      return job?.lastRun !== undefined && job.lastRun.status !== 'running' ? job : undefined;
    },
    what,
    timeoutMs,
  );
}

/** An ISO time `milliseconds` from now. */
export function isoIn(milliseconds: number): string {
  return new Date(Date.now() + milliseconds).toISOString();
}

/** How many model requests carried this text in their messages. */
export function modelCallsWith(model: ScriptedModelServer, text: string): number {
  return model.requests.filter((request) => request.path === '/v1/chat/completions' && JSON.stringify(request.body?.messages ?? []).includes(text)).length;
}

/** A model for schedules: a scheduled prompt → `ran: <prompt>`; anything else → `echo: <text>`. */
export const schedulingModel: ScriptedHandler = (_body, context) => {
  const scheduled = /^\[Scheduled task [^\]]+\] ([\s\S]*)$/.exec(context.lastUserText);
  if (scheduled) return { text: `ran: ${scheduled[1]}` };
  return { text: `echo: ${context.lastUserText}` };
};

/** Writes YAML config overlays into one temporary folder, removed by `cleanup`. */
export function createConfigWriter(): { write(yaml: string): string; cleanup(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'echo-cron-config-'));
  let count = 0;
  return {
    write(yaml) {
      count += 1;
      const file = join(folder, `config-${count}.yaml`);
      writeFileSync(file, yaml);
      return file;
    },
    cleanup: () => rmSync(folder, { recursive: true, force: true }),
  };
}
