import { createRequire } from 'node:module';

/** node-cron's API (its default export; its CommonJS build has the same functions). */
export type NodeCron = typeof import('node-cron').default;

let loaded: NodeCron | undefined;

/**
 * node-cron, loaded the first time a cron expression is read or a job is armed rather than at start-up: an agent
 * with no cron job never needs it. Required synchronously (its CommonJS build), since reading a schedule is synchronous.
 */
export function loadNodeCron(): NodeCron {
  loaded ??= createRequire(import.meta.url)('node-cron') as NodeCron;
  return loaded;
}
