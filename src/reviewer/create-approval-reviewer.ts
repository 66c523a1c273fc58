import { canonicalJson } from '../registry/canonical-json.js';
import type { ModelPort, UsageAttribution } from '../model/model-port.js';
import type { Risk } from '../events/risk.js';
import { parseReviewerAnswer } from './parse-reviewer-answer.js';
import { buildReviewerMessages } from './reviewer-prompt.js';
import type { ReviewerVerdict } from './reviewer-verdict.js';

/** Options of the approval reviewer. */
export type ApprovalReviewerOptions = {
  readonly model: ModelPort;
  /** Hard limit on the reviewer call; past it the verdict is escalate. */
  readonly timeoutMs: number;
  readonly workspaceDir: string;
};

/** One call to review: the tool, its risk and its validated arguments. */
export type ReviewRequest = { readonly toolName: string; readonly risk: Risk; readonly input: unknown; readonly attribution?: UsageAttribution };

/** Reviews one call; always resolves, never approves on failure. */
export type ApprovalReviewer = (request: ReviewRequest) => Promise<ReviewerVerdict>;

/**
 * The approval reviewer: a separate short model call (temperature 0, hard timeout) that sees only a fixed
 * prompt, the tool name, the canonical arguments fenced as untrusted data, the workspace and the risk.
 * An answer that does not parse, a timeout or an outage escalate to a person.
 */
export function createApprovalReviewer(options: ApprovalReviewerOptions): ApprovalReviewer {
  return async (request) => {
    const model = options.model.name;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // A race, not only the signal: a provider that ignores the abort still cannot hold the turn.
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve('timeout');
      }, options.timeoutMs);
    });
    try {
      const messages = buildReviewerMessages({ toolName: request.toolName, risk: request.risk, argumentsJson: canonicalJson(request.input), workspaceDir: options.workspaceDir });
      const result = await Promise.race([options.model.complete({ messages, tools: [], signal: controller.signal, maxTokens: 100, temperature: 0, ...(request.attribution === undefined ? {} : { attribution: request.attribution }) }), deadline]);
      if (result === 'timeout' || controller.signal.aborted) return { decision: 'escalate', reason: `the reviewer did not answer within ${options.timeoutMs} ms`, cause: 'timeout', model };
      if (!result.ok) return { decision: 'escalate', reason: `the reviewer could not be reached (${result.failure.kind})`, cause: 'unavailable', model };
      const parsed = parseReviewerAnswer(result.answer.text);
      if (!parsed) return { decision: 'escalate', reason: 'the reviewer gave no clear answer', cause: 'unparsable', model };
      return { ...parsed, cause: 'answer', model };
    } catch {
      return { decision: 'escalate', reason: 'the reviewer failed', cause: 'unavailable', model };
    } finally {
      clearTimeout(timer);
    }
  };
}
