// The mechanics of `npm run eval:memory` against the scripted model: each exchange reaches the extractor (the
// person's words only) and the compactor, the question is answered and judged once per case and mode, and the scores
// come out per category with memory on and off. The scripted model answers with everything it was shown, and its
// judge calls an answer right when it contains the reference's longest word: so memory on must carry the fact.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseArguments } from '../../../src/app/parse-arguments.js';
import { runMemoryEvaluation } from '../../../src/cli/run-memory-evaluation.js';
import { compactionPrompt } from '../../../src/memory/compaction-prompt.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import { memoryEvaluationCases } from '../../../src/memory/memory-evaluation-cases.js';
import { evaluationAnswerPrompt, memoryJudgePrompt } from '../../../src/memory/memory-judge-prompt.js';
import { createScriptedModelServer, type ScriptedModelServer, type ScriptedRequestBody } from '../../fakes/scripted-model-server.js';

let model: ScriptedModelServer;
let folder: string;

const contentOf = (body: ScriptedRequestBody | undefined, index: number) => String(body?.messages?.[index]?.content ?? '');

/** Extraction: the message as one fact; compaction: the first line kept; answers: all it was shown; the judge: by the reference's longest word. */
function fakeModel(body: ScriptedRequestBody): { text: string } {
  const system = contentOf(body, 0);
  if (system === factExtractionPrompt) {
    const text = contentOf(body, 1).split('\n').slice(1).join(' ');
    return { text: JSON.stringify({ facts: [{ subject: text.slice(0, 30), statement: text, about: 'speaker' }] }) };
  }
  if (system === compactionPrompt) return { text: 'The person chatted about recipes.' };
  if (system === memoryJudgePrompt) {
    const input = contentOf(body, 1);
    const words = (/Reference answer: (.*)/.exec(input)?.[1] ?? '').match(/[\p{L}\p{N}]+/gu) ?? [];
    const reference = [...words].sort((left, right) => right.length - left.length)[0] ?? '';
    const answer = input.slice(input.indexOf("Assistant's answer:"));
    return { text: JSON.stringify({ correct: reference !== '' && answer.toLowerCase().includes(reference.toLowerCase()) }) };
  }
  return { text: (body.messages ?? []).map((message) => String(message.content ?? '')).join(' | ') };
}

beforeAll(async () => {
  model = await createScriptedModelServer();
  model.setFallback(fakeModel);
  folder = mkdtempSync(join(tmpdir(), 'echo-eval-memory-test-'));
  vi.stubEnv('OPENAI_BASE_URL', model.url);
  vi.stubEnv('OPENAI_API_KEY', 'key');
  vi.stubEnv('ECHO_MODEL', 'memory-under-test');
  vi.stubEnv('ANTHROPIC_API_KEY', undefined);
  vi.stubEnv('ECHO_CONFIG', undefined);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});

function capture() {
  let text = '';
  return {
    write(chunk: string) {
      text += chunk;
    },
    text: () => text,
  };
}

describe('npm run eval:memory', () => {
  it('plays the built-in cases with memory on and off and prints accuracy per category', async () => {
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, `storage:\n  dataDir: ${join(folder, 'data')}\n`);
    const before = model.requests.length;
    const output = capture();
    const progress = capture();
    const code = await runMemoryEvaluation(parseArguments(['eval-memory', '--limit', '2', '--config', configFile]), output, progress);
    expect(code).toBe(0);
    const requests = model.requests.slice(before).filter((request) => request.path === '/v1/chat/completions');
    const judged = requests.filter((request) => contentOf(request.body, 0) === memoryJudgePrompt);
    const answered = requests.filter((request) => contentOf(request.body, 0).startsWith(evaluationAnswerPrompt));
    const extractions = requests.filter((request) => contentOf(request.body, 0) === factExtractionPrompt);
    expect(judged).toHaveLength(4);
    expect(answered).toHaveLength(4);
    // Only the memory-on run extracts: one call per exchange of the two cases (3 sessions of 3, 6 and 6 exchanges).
    expect(extractions).toHaveLength(2 * 15);
    expect(requests.some((request) => contentOf(request.body, 0) === compactionPrompt)).toBe(true);
    // The dog's name was said in the first session: with memory on it reaches the answer, with it off it was dropped.
    const dogAnswers = answered.filter((request) => JSON.stringify(request.body?.messages).includes("What is my dog's name?"));
    expect(dogAnswers.map((request) => JSON.stringify(request.body?.messages).includes('Biscuit'))).toEqual([true, false]);
    expect(output.text()).toContain('Memory evaluation: openai:memory-under-test, 2 case(s), history budget 1000 characters');
    expect(output.text()).toMatch(/^compacted-recall\s+2\/2 \(100%\)\s+0\/2 \(0%\)$/m);
    expect(output.text()).toContain('Injected text that became a fact: 0');
    expect(progress.text()).toContain('on  recall-en-dog: correct');
  });

  it('the built-in set: 12 to 20 cases in English and Chinese; with memory off every compacted answer is gone from the history, with it on none is; no injected text becomes a fact', async () => {
    expect(memoryEvaluationCases.length).toBeGreaterThanOrEqual(12);
    expect(memoryEvaluationCases.length).toBeLessThanOrEqual(20);
    for (const category of ['compacted-recall', 'changed-fact', 'injected-text']) {
      expect(new Set(memoryEvaluationCases.filter((entry) => entry.category === category).map((entry) => entry.language))).toEqual(new Set(['en', 'zh']));
    }
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, `storage:\n  dataDir: ${join(folder, 'data')}\n`);
    const output = capture();
    expect(await runMemoryEvaluation(parseArguments(['eval-memory', '--config', configFile]), output, capture())).toBe(0);
    expect(output.text()).toMatch(/^compacted-recall\s+6\/6 \(100%\)\s+0\/6 \(0%\)$/m);
    expect(output.text()).toContain('Injected text that became a fact: 0');
  });

  it('with a model that does not answer, prints no scores and says why (exit 2)', async () => {
    const configFile = join(folder, 'unreachable.yaml');
    writeFileSync(configFile, `storage:\n  dataDir: ${join(folder, 'data')}\nmodel:\n  primary:\n    provider: openai\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: key\n    name: nobody-home\n`);
    const output = capture();
    const errors = capture();
    expect(await runMemoryEvaluation(parseArguments(['eval-memory', '--limit', '1', '--config', configFile]), output, errors)).toBe(2);
    expect(errors.text()).toContain('did not answer');
    expect(errors.text()).toContain('no scores');
    expect(output.text()).not.toContain('memory on');
  });

  it('reads a LongMemEval file, and says plainly when a file is not one', async () => {
    const configFile = join(folder, 'config.yaml');
    writeFileSync(configFile, `storage:\n  dataDir: ${join(folder, 'data')}\n`);
    const file = join(folder, 'longmemeval.json');
    const item = {
      question_id: 'q1',
      question_type: 'single-session-user',
      question: 'What colour is my bike?',
      answer: 'Green',
      question_date: '2023/05/30',
      haystack_session_ids: ['s1'],
      haystack_dates: ['2023/05/20'],
      haystack_sessions: [[{ role: 'user', content: 'My bike is green.' }, { role: 'assistant', content: 'Nice colour!' }]],
      answer_session_ids: ['s1'],
    };
    writeFileSync(file, JSON.stringify([item]));
    const output = capture();
    expect(await runMemoryEvaluation(parseArguments(['eval-memory', '--longmemeval', file, '--config', configFile]), output, capture())).toBe(0);
    expect(output.text()).toMatch(/^single-session-user\s+1\/1 \(100%\)\s+1\/1 \(100%\)$/m);
    writeFileSync(file, JSON.stringify({ not: 'a list' }));
    const errors = capture();
    expect(await runMemoryEvaluation(parseArguments(['eval-memory', '--longmemeval', file, '--config', configFile]), capture(), errors)).toBe(2);
    expect(errors.text()).toContain('not a LongMemEval file');
  });
});
