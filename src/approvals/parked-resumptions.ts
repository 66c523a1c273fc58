import type { ResumptionControl } from '../journal/create-turn-parking.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';
import type { PendingApproval } from './pending-approval.js';
import type { SuspendedTurn } from './suspended-turn.js';

/**
 * What an operator does with a resumption parked after repeated interruptions (`/parked retry|drop`, `npm run parked`),
 * over the store's `approvals` and `suspended-turns` namespaces. Retry resets the start count (in the approval's claim,
 * or on the suspension) first, then clears the parked mark: a crash in between leaves it parked, never running with
 * its old count. Drop marks the approval's resumption done, then removes the suspension.
 */
export function createParkedResumptions(options: {
  readonly approvals: KeyValueNamespace<PendingApproval>;
  readonly suspensions: KeyValueNamespace<SuspendedTurn>;
  readonly now?: () => Date;
}): ResumptionControl {
  const now = options.now ?? (() => new Date());
  return {
    async retry(suspensionId) {
      await options.approvals.update(suspensionId, (current) => {
        if (current?.resumption?.state !== 'resuming') return current;
        // As if just decided: the next claim counts its first start.
        const { resumption: _resumption, ...decided } = current;
        return decided;
      });
      await options.suspensions.update(suspensionId, (current) => {
        if (!current) return current;
        const { parkedAt: _parkedAt, resumeStarts: _resumeStarts, ...waiting } = current;
        return waiting;
      });
    },
    async drop(suspensionId, by) {
      const at = now().toISOString();
      await options.approvals.update(suspensionId, (current) => (current && current.status !== 'pending' ? { ...current, resumption: { state: 'done', by, at } } : current));
      await options.suspensions.delete(suspensionId);
    },
  };
}
