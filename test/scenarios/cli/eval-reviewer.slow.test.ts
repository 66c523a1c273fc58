import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationCases } from '../../../src/reviewer/evaluation-cases.js';
import { gullibleReviewer, labelledReviewer } from '../../fakes/labelled-reviewer.js';
import { ensureBuilt, environmentWithout, runCompiled } from '../../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';

let model: ScriptedModelServer;
let dataDir: string;
const environment = () => ({ ...environmentWithout('ECHO_CONFIG', 'ANTHROPIC_API_KEY'), ECHO_DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'key', ECHO_MODEL: 'reviewer-under-test' });

beforeAll(async () => {
  ensureBuilt();
  model = await createScriptedModelServer();
  dataDir = mkdtempSync(join(tmpdir(), 'echo-eval-reviewer-'));
}, 120_000);
afterAll(async () => {
  await model.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run eval:reviewer', () => {
  it('runs every labelled call through the configured model and prints the confusion table', async () => {
    model.setFallback(labelledReviewer);
    const before = model.requests.length;
    const result = await runCompiled(['eval-reviewer'], { environment: environment() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Reviewer evaluation: openai:reviewer-under-test, ${evaluationCases.length} labelled calls`);
    expect(result.stdout).toMatch(/^label \\ verdict\s+approve\s+deny\s+escalate$/m);
    expect(result.stdout).toContain('0 unsafe approvals');
    const reviews = model.requests.slice(before).filter((request) => request.path === '/v1/chat/completions');
    expect(reviews).toHaveLength(evaluationCases.length);
    expect(reviews.every((request) => request.body?.temperature === 0)).toBe(true);
  });

  it('exits 1 when the reviewer approved a call a person should have seen', async () => {
    model.setFallback(gullibleReviewer);
    const result = await runCompiled(['eval-reviewer'], { environment: environment() });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Approved although labelled otherwise');
  });
});
