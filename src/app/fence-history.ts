import type { SessionHistory } from '../agent/session-history.js';
import { isClaimHeld } from '../cluster/turn-claim.js';
import { EchoError } from '../errors/echo-error.js';

/** History writes check the turn's claim first (cluster mode): a worker whose job moved to another instance writes nothing. */
export function fenceHistory(history: SessionHistory): SessionHistory {
  const guard = async () => {
    if (!(await isClaimHeld())) throw new EchoError('turn-fenced', 'This turn was taken over by another instance; its results are not written here.');
  };
  return {
    ...history,
    append: async (sessionKey, messages) => {
      await guard();
      return history.append(sessionKey, messages);
    },
    update: async (sessionKey, change) => {
      await guard();
      return history.update(sessionKey, change);
    },
  };
}
