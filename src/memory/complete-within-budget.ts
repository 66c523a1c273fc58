import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { ModelFailure, ModelPort, ModelRequest, UsageAttribution } from '../model/model-port.js';

/** A memory call's result: the answer's text, a model failure, or a budget that stopped it before the call. */
export type MemoryCallResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly kind: 'model-failed'; readonly failure: ModelFailure } | { readonly ok: false; readonly kind: 'budget-stopped' };

/** Makes one memory model call, reserved against the subject's budgets first when budgets are enforced (the meter settles the hold). */
export async function completeWithinBudget(input: { readonly model: ModelPort; readonly budgets?: BudgetControl; readonly request: ModelRequest & { readonly attribution: UsageAttribution } }): Promise<MemoryCallResult> {
  const { model, budgets, request } = input;
  let hold: ModelRequest['hold'];
  if (budgets?.enforced) {
    const reserved = await budgets.reserve(request, request.attribution, model.name);
    if (!reserved.ok) return { ok: false, kind: 'budget-stopped' };
    hold = reserved.hold;
  }
  const result = await model.complete(hold === undefined ? request : { ...request, hold });
  return result.ok ? { ok: true, text: result.answer.text } : { ok: false, kind: 'model-failed', failure: result.failure };
}
