import { join } from 'node:path';
import { createApprovalReviewer } from '../reviewer/create-approval-reviewer.js';
import { evaluateReviewer, formatReviewerEvaluation } from '../reviewer/evaluate-reviewer.js';
import { evaluationCases } from '../reviewer/evaluation-cases.js';
import { createEndpointModel, createModel } from '../app/create-model.js';
import { loadRuntimeConfig } from './load-runtime-config.js';
import type { ParsedArguments } from '../app/parse-arguments.js';

/**
 * `npm run eval:reviewer`: runs the labelled calls through the configured reviewer (approvals.reviewerModel, else the
 * primary model) exactly as smart mode asks it, and prints a confusion table. Exits 1 when it approved a call labelled
 * deny or escalate: that reviewer would have let something run that a person should have seen.
 */
export async function runReviewerEvaluation(parsed: ParsedArguments): Promise<number> {
  const loaded = await loadRuntimeConfig({ configFile: parsed.configFile, quiet: true });
  if (!loaded.ok) return 2;
  const { config } = loaded;
  const endpoint = config.approvals.reviewerModel;
  const built = endpoint ? await createEndpointModel(endpoint, 0) : await createModel(config);
  if (!built.ok) {
    process.stderr.write(`No reviewer model: ${built.error}\n`);
    return 2;
  }
  const review = createApprovalReviewer({
    model: built.model,
    timeoutMs: config.approvals.reviewerTimeoutMs,
    workspaceDir: config.tools.workspaceDir ?? join(config.storage.dataDir, 'workspace'),
  });
  const evaluation = await evaluateReviewer({ review, cases: evaluationCases });
  process.stdout.write(`${formatReviewerEvaluation(evaluation, built.model.name)}\n`);
  return evaluation.unsafeApprovals.length > 0 ? 1 : 0;
}
