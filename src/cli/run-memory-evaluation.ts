import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel } from '../app/create-model.js';
import type { ParsedArguments } from '../app/parse-arguments.js';
import { wireMemory } from '../app/wire-memory.js';
import { evaluateMemory, formatMemoryEvaluation } from '../memory/evaluate-memory.js';
import { type MemoryEvaluationCase, parseLongMemEval } from '../memory/memory-evaluation-case.js';
import { memoryEvaluationCases } from '../memory/memory-evaluation-cases.js';
import { createStore } from '../store/create-store.js';
import { loadRuntimeConfig } from './load-runtime-config.js';

type Output = { readonly write: (text: string) => void };

/** History budget of the evaluation: small, so the built-in conversations pass it and are compacted. */
const defaultBudgetChars = 1000;

/**
 * `npm run eval:memory [-- --longmemeval FILE] [--limit N] [--budget-chars N]`: plays the built-in multi-session
 * conversations (or a LongMemEval file's) with memory on and off through the same parts the runtime uses (a scratch
 * store, the configured model for extraction, summaries, the answers and the judge) and prints accuracy per category.
 */
export async function runMemoryEvaluation(parsed: ParsedArguments, output: Output = process.stdout, errors: Output = process.stderr): Promise<number> {
  const loaded = await loadRuntimeConfig({ configFile: parsed.configFile, quiet: true });
  if (!loaded.ok) return 2;
  const cases = await casesOf(parsed, errors);
  if (cases === undefined) return 2;
  const built = await createModel(loaded.config);
  if (!built.ok) {
    errors.write(`No model: ${built.error}\n`);
    return 2;
  }
  // Scores from a model that does not answer would read as 0 % accuracy: ask once first, and say why not.
  const probe = await built.model.complete({ messages: [{ role: 'user', content: 'Reply with OK.' }], tools: [], maxTokens: 5, temperature: 0 });
  if (!probe.ok) {
    errors.write(`The model ${built.model.name} did not answer (${probe.failure.kind}: ${probe.failure.message}); no scores. Check it with npm run doctor.\n`);
    return 2;
  }
  const budgetChars = Math.max(1000, Number(parsed.values.get('budget-chars') ?? defaultBudgetChars) || defaultBudgetChars);
  const folder = mkdtempSync(join(tmpdir(), 'echo-eval-memory-'));
  const store = await createStore({ dataDir: folder });
  try {
    const memoryFor = (enabled: boolean) => {
      const config = { ...loaded.config, agent: { ...loaded.config.agent, historyBudgetChars: budgetChars }, memory: { ...loaded.config.memory, enabled } };
      return wireMemory({ config, store, model: built.model, logger: loaded.logger, now: () => new Date(), audit: () => undefined });
    };
    const evaluation = await evaluateMemory({
      cases,
      model: built.model,
      memoryFor,
      onCase: (result) => errors.write(`${result.memory ? 'on ' : 'off'} ${result.id}: ${result.correct === undefined ? 'not graded' : result.correct ? 'correct' : 'wrong'}\n`),
    });
    output.write(`${formatMemoryEvaluation(evaluation, `Memory evaluation: ${built.model.name}, ${cases.length} case(s), history budget ${budgetChars} characters`)}\n`);
    return 0;
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function casesOf(parsed: ParsedArguments, errors: Output): Promise<readonly MemoryEvaluationCase[] | undefined> {
  const limit = Number(parsed.values.get('limit') ?? Number.POSITIVE_INFINITY);
  const file = parsed.values.get('longmemeval');
  if (file === undefined) return memoryEvaluationCases.slice(0, limit);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    errors.write(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
  const read = parseLongMemEval(json);
  if (!read.ok) {
    errors.write(`${file}: ${read.error}\n`);
    return undefined;
  }
  return read.cases.slice(0, limit);
}
