import type { ConsoleLinkIssuer } from '../agent/runtime-dependencies.js';
import type { Config } from '../config/config-schema.js';
import { consoleLinkMinutes } from '../config/console-schema.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { Logger } from '../logging/create-logger.js';
import type { ActiveSurfaces } from './approval-routing.js';
import type { WiredRuntime } from './build-runtime.js';
import type { InstanceSighting } from '../console/instance-roster.js';
import type { Lifecycle } from './create-lifecycle.js';
import type { Infrastructure } from './open-infrastructure.js';
import type { WiredScheduler } from './wire-scheduler.js';

/** The base URL of login links: console.publicUrl, else the gateway as it listens (a wildcard host read as localhost). */
function baseUrlOf(config: Config, gateway: Gateway): string | undefined {
  if (config.console.publicUrl !== undefined) return config.console.publicUrl;
  const address = gateway.address();
  if (address === undefined) return undefined;
  const host = address.host === '0.0.0.0' || address.host === '::' ? 'localhost' : address.host.includes(':') ? `[${address.host}]` : address.host;
  return `http://${host}:${address.port}`;
}

/**
 * The `/console` command's link issuer, or undefined while the console is off (the command then says how to turn it
 * on). The console's code is imported with the first link, never at start-up.
 */
export function consoleLinkIssuer(input: { readonly config: Config; readonly infrastructure: Infrastructure; readonly now: () => Date; readonly gateway?: Gateway }): ConsoleLinkIssuer | undefined {
  const { config, gateway } = input;
  if (!config.console.enabled) return undefined;
  return async (person) => {
    const baseUrl = gateway === undefined ? undefined : baseUrlOf(config, gateway);
    if (baseUrl === undefined) return { ok: false, reason: 'no-gateway' };
    const { issueConsoleLink } = await import('../console/create-console-routes.js');
    const url = await issueConsoleLink({ deps: { store: input.infrastructure.store, now: input.now }, baseUrl, person }).catch(() => undefined);
    return url === undefined ? { ok: false, reason: 'not-saved' } : { ok: true, url, minutes: consoleLinkMinutes };
  };
}

/**
 * Mounts the web console on the gateway when `console.enabled` (server mode), over the services that already exist:
 * the approvals store and the runtime's decision path, the audit log, the usage ledger, parked turns, the scheduler and
 * the health report. Returns its start-up line, or undefined when off (nothing of src/console/ is loaded then).
 */
export async function wireConsole(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly infrastructure: Infrastructure;
  readonly gateway?: Gateway;
  readonly wired: WiredRuntime;
  readonly scheduler: WiredScheduler;
  readonly surfaces: ActiveSurfaces;
  readonly lifecycle: Lifecycle;
}): Promise<string | undefined> {
  const { config, infrastructure, gateway } = input;
  if (!config.console.enabled || gateway === undefined) return undefined;
  const [{ createConsoleRoutes }, { createInstanceRoster }] = await Promise.all([import('../console/create-console-routes.js'), import('../console/instance-roster.js')]);
  const logger = input.logger.child({ component: 'console' });
  const roster = createInstanceRoster({
    sightings: infrastructure.store.namespace<InstanceSighting>('console-instances'),
    self: () => ({ id: infrastructure.instanceId, mode: infrastructure.events.mode, leads: infrastructure.events.leadership.held() }),
    now: input.now,
    onError: (error) => logger.debug({ err: error }, 'console could not report this instance'),
  });
  input.lifecycle.defer('the web console', () => roster.stop());
  const routes = createConsoleRoutes({
    store: infrastructure.store,
    logger,
    now: input.now,
    locale: config.agent.locale,
    timezone: config.agent.timezone,
    isApprover: (person) => input.surfaces().get(person.channel)?.approvers.includes(person.userId) ?? false,
    secrets: infrastructure.secrets,
    approvalRecords: infrastructure.store.namespace<PendingApproval>('approvals'),
    decide: input.wired.decideInConsole,
    audit: infrastructure.audit,
    budgets: infrastructure.budgets.control,
    budgetsConfig: config.budgets,
    parking: infrastructure.parking,
    health: () => gateway.health(),
    instances: () => roster.list(),
    schedules: {
      jobs: () => input.scheduler.control.jobs(),
      runNow: async (jobId) => {
        const fired = await input.scheduler.control.runNow(jobId);
        return fired.ok ? { ok: true } : { ok: false, reason: fired.error };
      },
      pause: async (jobId, by) => {
        const paused = await input.scheduler.control.pause(jobId, by);
        return paused.ok ? { ok: true } : { ok: false, reason: paused.error };
      },
      resume: async (jobId) => {
        const resumed = await input.scheduler.control.resume(jobId);
        return resumed.ok ? { ok: true } : { ok: false, reason: resumed.error };
      },
      remove: async (jobId) => {
        const cancelled = await input.scheduler.scheduler.cancel(jobId);
        return cancelled.ok ? { ok: true } : { ok: false, reason: cancelled.error };
      },
    },
    telemetry: infrastructure.telemetry,
    sessionLifetimeMs: config.console.sessionHours * 60 * 60_000,
    secure: config.console.publicUrl?.startsWith('https://') ?? false,
  });
  for (const route of routes) gateway.mount(route);
  return `console: on at /console (log in with /console in a chat${config.console.publicUrl === undefined ? '' : `; links to ${config.console.publicUrl}`})`;
}
