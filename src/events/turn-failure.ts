/**
 * Why a turn ended with a sentence instead of the model's answer, carried on its final reply so a channel that
 * answers callers with a status (an HTTP gateway) can say what happened without reading the sentence.
 * `resetsAt` (ISO) is when a used-up budget resets; absent for the per-turn ceiling, which no wait lifts.
 */
export type TurnFailure =
  | { readonly kind: 'model-unavailable' }
  | { readonly kind: 'store-unavailable' }
  | { readonly kind: 'budget-exhausted'; readonly resetsAt?: string };
