import type { SessionHistory } from '../agent/session-history.js';
import { isClaimHeld, turnClaim } from '../cluster/turn-claim.js';
import { EchoError } from '../errors/echo-error.js';

/** History writes check the turn's claim first (cluster mode): a worker whose job moved to another instance writes nothing. */
export function fenceHistory(history: SessionHistory): SessionHistory {
  const fenced = async <T>(write: () => Promise<T>): Promise<T> => {
    if (!(await isClaimHeld())) throw new EchoError('turn-fenced', 'This turn was taken over by another instance; its results are not written here.');
    return write();
  };
  // Outside a cluster job there is no claim to check: the write goes straight on, without the promises of the check.
  return {
    ...history,
    append: (sessionKey, messages) => (turnClaim.getStore() === undefined ? history.append(sessionKey, messages) : fenced(() => history.append(sessionKey, messages))),
    update: (sessionKey, change) => (turnClaim.getStore() === undefined ? history.update(sessionKey, change) : fenced(() => history.update(sessionKey, change))),
  };
}
