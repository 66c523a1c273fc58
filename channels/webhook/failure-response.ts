import type { TurnFailure } from '../../src/events/turn-failure.js';
import { errorBody } from '../../src/gateway/error-response.js';
import type { StoredResponse } from './idempotency-store.js';

/** A waited answer, with the Retry-After (seconds) to send with it when one is known. */
export type WaitedResponse = StoredResponse & { readonly retryAfterSeconds?: number };

/**
 * The `?wait=true` answer for a turn that could not answer: 502 `model-unavailable`, 503 `store-unavailable` or 429
 * `budget-exhausted` (Retry-After until the budget resets, and `resetsAt`), with the usual error body plus the run and
 * the sentence the chat got as `reply`. Pure.
 */
export function failureResponse(input: { readonly runId: string; readonly failure: TurnFailure; readonly reply: string; readonly now: Date }): WaitedResponse {
  const { runId, failure, reply } = input;
  switch (failure.kind) {
    case 'model-unavailable':
      return { status: 502, body: { ...errorBody('model-unavailable', 'The model could not be reached or did not answer; the turn ended without an answer. Retry later.'), runId, reply } };
    case 'store-unavailable':
      return {
        status: 503,
        body: { ...errorBody('store-unavailable', "The agent's storage stopped answering during the turn. The message is kept and answered once it is back (to the callback URL, if one was given)."), runId, reply },
      };
    case 'budget-exhausted': {
      if (failure.resetsAt === undefined) return { status: 429, body: { ...errorBody('budget-exhausted', 'The turn reached its per-turn limit and was stopped.'), runId, reply } };
      const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(failure.resetsAt) - input.now.getTime()) / 1000));
      return { status: 429, retryAfterSeconds, body: { ...errorBody('budget-exhausted', `A budget is used up until ${failure.resetsAt}; the turn was stopped before its next model call.`), runId, reply, resetsAt: failure.resetsAt } };
    }
  }
}
