import type { ScheduledTask } from 'node-cron';
import { loadNodeCron } from './load-node-cron.js';
import type { Logger } from '../logging/create-logger.js';

// setTimeout holds at most 2^31-1 ms (about 24.8 days); longer waits are re-armed in chunks.
const longestTimeoutMs = 2_147_483_647;

/** Wakes jobs at their times: node-cron for cron expressions, a timer for one-time jobs. */
export interface JobTimers {
  armRecurring(jobId: string, expression: string, timezone: string): void;
  armOnce(jobId: string, at: Date): void;
  /** The next time an armed recurring job fires. */
  nextRun(jobId: string): Date | undefined;
  disarm(jobId: string): void;
  disarmAll(): void;
  /** The jobs that have a timer now. */
  armed(): readonly string[];
}

/** Creates the timers; `onFire` is called with the job id and the due time (the slot) at each due time. */
export function createJobTimers(options: { readonly onFire: (jobId: string, slot: Date) => void; readonly logger: Logger; readonly now: () => Date }): JobTimers {
  const tasks = new Map<string, ScheduledTask>();
  const timeouts = new Map<string, NodeJS.Timeout>();
  const cronLogger = {
    info: (message: string) => options.logger.debug(message),
    warn: (message: string) => options.logger.warn(message),
    error: (message: string | Error, error?: Error) => options.logger.error({ err: error ?? message }, String(message)),
    debug: (message: string | Error) => options.logger.trace(String(message)),
  };

  function disarm(jobId: string): void {
    const task = tasks.get(jobId);
    if (task) {
      tasks.delete(jobId);
      void Promise.resolve(task.destroy()).catch(() => undefined);
    }
    clearTimeout(timeouts.get(jobId));
    timeouts.delete(jobId);
  }

  function armOnce(jobId: string, at: Date): void {
    disarm(jobId);
    const delay = Math.max(0, at.getTime() - options.now().getTime());
    if (delay > longestTimeoutMs) {
      timeouts.set(
        jobId,
        setTimeout(() => armOnce(jobId, at), longestTimeoutMs),
      );
      return;
    }
    timeouts.set(
      jobId,
      setTimeout(() => {
        timeouts.delete(jobId);
        options.onFire(jobId, at);
      }, delay),
    );
  }

  return {
    armRecurring(jobId, expression, timezone) {
      disarm(jobId);
      const task = loadNodeCron().createTask(expression, (context) => options.onFire(jobId, slotOf(context.date)), { timezone, name: `echo-cron-${jobId}`, logger: cronLogger });
      tasks.set(jobId, task);
      void Promise.resolve(task.start()).catch((error: unknown) => options.logger.error({ err: error, jobId }, 'cron task did not start'));
    },
    armOnce,
    nextRun: (jobId) => tasks.get(jobId)?.getNextRun() ?? undefined,
    disarm,
    disarmAll() {
      for (const jobId of [...tasks.keys(), ...timeouts.keys()]) disarm(jobId);
    },
    armed: () => [...tasks.keys(), ...timeouts.keys()],
  };
}

/** The due time a cron tick stands for, to the second: the same on every instance whatever its timer's jitter. */
function slotOf(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
