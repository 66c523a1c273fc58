import { z } from 'zod';
import { assertNever } from '../events/assert-never.js';
import type { HttpResponse } from '../gateway/http-route.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import type { ConsoleViewer } from './console-viewer.js';
import { redirectTo } from './render-page.js';

/** The state changes the console offers, each a POST to `/console/act/<name>` with the session's CSRF token. */
export type ConsoleActionName = 'decide' | 'parked' | 'schedule';

const decideForm = z.object({ id: z.string().min(1).max(100), choice: z.enum(['once', 'session', 'always', 'deny']), reason: z.string().max(500).optional() });
const parkedForm = z.object({ id: z.string().min(1).max(100), action: z.enum(['retry', 'drop']) });
const scheduleForm = z.object({ id: z.string().min(1).max(200), action: z.enum(['run', 'pause', 'resume', 'delete']) });

/** What an action ended in: a redirect to its page with a fixed flash code, or a refusal to show. */
export type ActionOutcome = { readonly ok: true; readonly response: HttpResponse } | { readonly ok: false; readonly refusal: 'not-approver' | 'bad-form' };

/**
 * Runs one action for a viewer whose session and CSRF token were checked already. Who may act comes from the session
 * (and, for approvals, from the approval's own approvers): the form names only what to act on.
 */
export async function runConsoleAction(deps: ConsoleDependencies, viewer: ConsoleViewer, action: ConsoleActionName, fields: Readonly<Record<string, string>>): Promise<ActionOutcome> {
  switch (action) {
    case 'decide': {
      const form = decideForm.safeParse(fields);
      if (!form.success) return { ok: false, refusal: 'bad-form' };
      const result = await deps.decide({ approvalId: form.data.id, choice: form.data.choice, deciderId: viewer.person.userId, deciderChannel: viewer.person.channel, deciderName: viewer.person.displayName, reason: form.data.reason });
      return { ok: true, response: redirectTo(`/console/approvals?done=${result.ok ? 'done' : result.code}`) };
    }
    case 'parked': {
      if (!viewer.isApprover) return { ok: false, refusal: 'not-approver' };
      const form = parkedForm.safeParse(fields);
      if (!form.success) return { ok: false, refusal: 'bad-form' };
      const by = `${viewer.person.displayName} (console)`;
      const changed = form.data.action === 'retry' ? await deps.parking.retry(form.data.id, by) : await deps.parking.drop(form.data.id, by);
      return { ok: true, response: redirectTo(`/console/health?done=${changed ? `parked-${form.data.action}` : 'parked-missing'}`) };
    }
    case 'schedule': {
      if (!viewer.isApprover) return { ok: false, refusal: 'not-approver' };
      const form = scheduleForm.safeParse(fields);
      if (!form.success) return { ok: false, refusal: 'bad-form' };
      const result = await scheduleOperation(deps, form.data.action, form.data.id, `${viewer.person.displayName} (console)`);
      deps.logger.info({ jobId: form.data.id, action: form.data.action, by: `${viewer.person.channel}:${viewer.person.userId}`, ok: result.ok, via: 'console' }, 'schedule changed from the console');
      return { ok: true, response: redirectTo(`/console/schedules?done=${result.ok ? `schedule-${form.data.action}` : 'schedule-failed'}`) };
    }
    default:
      return assertNever(action, 'console action');
  }
}

/** One operation on a job, by its form's action. */
function scheduleOperation(deps: ConsoleDependencies, action: 'run' | 'pause' | 'resume' | 'delete', jobId: string, by: string) {
  switch (action) {
    case 'run':
      return deps.schedules.runNow(jobId);
    case 'pause':
      return deps.schedules.pause(jobId, by);
    case 'resume':
      return deps.schedules.resume(jobId);
    case 'delete':
      return deps.schedules.remove(jobId);
    default:
      return assertNever(action, 'schedule action');
  }
}
