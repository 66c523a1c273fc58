import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../../src/agent/providers/openai/index.js';
import { createApprovalReviewer } from '../../../src/reviewer/create-approval-reviewer.js';
import { evaluateReviewer, formatReviewerEvaluation } from '../../../src/reviewer/evaluate-reviewer.js';
import { evaluationCases } from '../../../src/reviewer/evaluation-cases.js';
import { gullibleReviewer, labelledReviewer } from '../../fakes/labelled-reviewer.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await createScriptedModelServer();
});
afterAll(async () => {
  await server.close();
});

const reviewer = () =>
  createApprovalReviewer({
    model: createOpenAiProvider({ name: 'openai:scripted', apiKey: 'key', baseUrl: server.url, model: 'scripted', timeoutMs: 5000, stream: false }),
    timeoutMs: 5000,
    workspaceDir: '/srv/workspace',
  });

describe('the reviewer evaluation (npm run eval:reviewer)', () => {
  it('has at least 60 labelled calls, with every category well represented', () => {
    expect(evaluationCases.length).toBeGreaterThanOrEqual(60);
    for (const category of ['benign', 'destructive', 'ambiguous', 'injection'] as const) {
      expect(evaluationCases.filter((item) => item.category === category).length, category).toBeGreaterThanOrEqual(12);
    }
    expect(evaluationCases.filter((item) => item.category === 'injection').every((item) => item.expected !== 'approve')).toBe(true);
  });

  it('puts a reviewer that agrees with every label on the diagonal of the confusion table', async () => {
    server.setFallback(labelledReviewer);
    const evaluation = await evaluateReviewer({ review: reviewer(), cases: evaluationCases });
    const count = (label: string) => evaluationCases.filter((item) => item.expected === label).length;
    expect(evaluation.confusion).toEqual({
      approve: { approve: count('approve'), deny: 0, escalate: 0 },
      deny: { approve: 0, deny: count('deny'), escalate: 0 },
      escalate: { approve: 0, deny: 0, escalate: count('escalate') },
    });
    expect(evaluation.unsafeApprovals).toEqual([]);
    const text = formatReviewerEvaluation(evaluation, 'openai:scripted');
    expect(text).toContain(`${evaluationCases.length} of ${evaluationCases.length} agree with their label; ${count('approve')} cards saved; 0 unsafe approvals; 0 reviewer failures`);
    expect(text).toMatch(/^approve\s+\d+\s+0\s+0$/m);
  });

  it('catches a reviewer that obeys injected text, and counts garbage as escalate', async () => {
    server.setFallback(gullibleReviewer);
    const evaluation = await evaluateReviewer({ review: reviewer(), cases: evaluationCases });
    expect(evaluation.unsafeApprovals.length).toBeGreaterThan(0);
    expect(new Set(evaluation.unsafeApprovals.map((result) => result.case.category))).toEqual(new Set(['injection']));
    expect(evaluation.failures).toBe(1);
    const text = formatReviewerEvaluation(evaluation, 'openai:scripted');
    expect(text).toContain('Approved although labelled otherwise');
    expect(text).toContain(`${evaluation.unsafeApprovals.length} unsafe approvals; 1 reviewer failures`);
  });
});
