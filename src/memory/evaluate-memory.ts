import type { ChatMessage } from '../model/chat-message.js';
import type { ModelPort, UsageAttribution } from '../model/model-port.js';
import type { NewExchange } from './create-exchange-archive.js';
import type { FactExtractor } from './create-fact-extractor.js';
import type { FactStore } from './create-fact-store.js';
import type { HistoryCompactor } from './create-history-compactor.js';
import type { EvaluationTurn, MemoryEvaluationCase } from './memory-evaluation-case.js';
import { evaluationAnswerPrompt, judgeInput, memoryJudgePrompt, parseJudgeVerdict } from './memory-judge-prompt.js';
import type { RecallRequest } from './recall-facts.js';

/** A history and, with memory on, what the runtime does with it: the same parts `src/app/wire-memory.ts` builds. */
export type EvaluationMemory = {
  readonly history: { load(sessionKey: string): Promise<readonly ChatMessage[]>; append(sessionKey: string, messages: readonly ChatMessage[]): Promise<void> };
  readonly memory?: {
    readonly extractFacts: FactExtractor;
    /** Archives the person's words and the reply, as after a real turn (absent: exchanges are not played). */
    readonly archiveExchange?: (exchange: NewExchange, attribution: UsageAttribution) => Promise<void>;
    readonly compactor: HistoryCompactor;
    readonly recall: (request: RecallRequest) => Promise<string>;
    readonly facts: FactStore;
  };
};

/** One case played once: the answer, the judge's verdict (undefined when the judge did not answer), and injected facts found. */
export type CaseResult = { readonly id: string; readonly category: string; readonly memory: boolean; readonly answer: string; readonly correct?: boolean; readonly injectedFacts: number };

/** Every case played with memory on and with it off. */
export type MemoryEvaluation = { readonly results: readonly CaseResult[] };

const channel = 'eval';
const userId = 'person';
const acknowledgement = 'OK.';

/** The exchange as the history keeps it: a page shown by a tool comes back as a tool call and its result. Pure. */
function exchangeOf(turn: EvaluationTurn, index: number): ChatMessage[] {
  const reply: ChatMessage = { role: 'assistant', content: turn.assistant ?? acknowledgement };
  if (turn.page === undefined) return [{ role: 'user', content: turn.user }, reply];
  const call = { id: `call-${index}`, name: 'read_page', argumentsText: '{}' };
  return [{ role: 'user', content: turn.user }, { role: 'assistant', content: '', toolCalls: [call] }, { role: 'tool', toolCallId: call.id, toolName: call.name, content: turn.page }, reply];
}

/**
 * Plays each case with memory on and off: every exchange goes into the history (a person's words to the fact
 * extractor, the exchange to the archive, then compaction, as after a real turn; replies are the recorded ones or a short acknowledgement, no model
 * call), then the question is asked with what the turn would see, and the model judges the answer against the reference.
 */
export async function evaluateMemory(input: {
  readonly cases: readonly MemoryEvaluationCase[];
  readonly model: ModelPort;
  readonly memoryFor: (enabled: boolean) => EvaluationMemory | Promise<EvaluationMemory>;
  readonly onCase?: (result: CaseResult) => void;
}): Promise<MemoryEvaluation> {
  const results: CaseResult[] = [];
  for (const enabled of [true, false]) {
    const wiring = await input.memoryFor(enabled);
    for (const testCase of input.cases) {
      const result = await playCase(input.model, wiring, testCase, enabled);
      results.push(result);
      input.onCase?.(result);
    }
  }
  return { results };
}

async function playCase(model: ModelPort, wiring: EvaluationMemory, testCase: MemoryEvaluationCase, enabled: boolean): Promise<CaseResult> {
  const chatId = `${enabled ? 'on' : 'off'}-${testCase.id}`;
  const sessionKey = `${channel}:${chatId}`;
  const attribution = (origin: UsageAttribution['origin']): UsageAttribution => ({ origin, sessionKey, userId, channel, chatId });
  let turnIndex = 0;
  for (const [sessionIndex, session] of testCase.sessions.entries()) {
    const at = new Date(Date.UTC(2026, 0, 1 + sessionIndex, 9, 0, 0)).toISOString();
    for (const turn of session) {
      turnIndex += 1;
      await wiring.history.append(sessionKey, exchangeOf(turn, turnIndex));
      if (wiring.memory === undefined) continue;
      const source = { messageId: String(turnIndex), authorId: userId, authorName: 'the person', channel, chatId, at };
      await wiring.memory.extractFacts({ text: turn.user, source, trust: 'allowed-user', isGroup: false }, attribution('user'));
      await wiring.memory.archiveExchange?.({ sessionKey, isGroup: false, question: turn.user, answer: turn.assistant ?? acknowledgement, source }, attribution('user'));
      await wiring.memory.compactor.compactIfNeeded(sessionKey, attribution('user'));
    }
  }
  const history = await wiring.history.load(sessionKey);
  // With the history, as a turn does: exchanges still in it are not recalled.
  const remembered = wiring.memory === undefined ? '' : await wiring.memory.recall({ channel, chatId, userId, isGroup: false, query: testCase.question, sessionKey, history });
  const messages: ChatMessage[] = [{ role: 'system', content: `${evaluationAnswerPrompt}${remembered}` }, ...history, { role: 'user', content: testCase.question }];
  const answered = await model.complete({ messages, tools: [], maxTokens: 300, temperature: 0, attribution: attribution('user') });
  const answer = answered.ok ? answered.answer.text.trim() : `(no answer: ${answered.failure.kind})`;
  const judged = answered.ok
    ? await model.complete({ messages: [{ role: 'system', content: memoryJudgePrompt }, { role: 'user', content: judgeInput({ question: testCase.question, reference: testCase.answer, answer }) }], tools: [], maxTokens: 50, temperature: 0, attribution: attribution('system') })
    : undefined;
  // A question the model did not answer, or an answer the judge did not grade, is left out of the scores (not counted wrong).
  const correct = judged?.ok ? parseJudgeVerdict(judged.answer.text) : undefined;
  return { id: testCase.id, category: testCase.category, memory: enabled, answer, ...(correct === undefined ? {} : { correct }), injectedFacts: await countInjected(wiring, testCase, chatId) };
}

async function countInjected(wiring: EvaluationMemory, testCase: MemoryEvaluationCase, chatId: string): Promise<number> {
  const needle = testCase.mustNotRemember;
  if (needle === undefined || wiring.memory === undefined) return 0;
  const scopes = [await wiring.memory.facts.history({ kind: 'person', channel, userId }), await wiring.memory.facts.history({ kind: 'chat', channel, chatId })];
  return scopes.flat().filter((fact) => fact.source.chatId === chatId && `${fact.subject} ${fact.statement}`.includes(needle)).length;
}

/** The scores per category, memory on beside memory off, with the judge's misses and the injected facts found. Pure. */
export function formatMemoryEvaluation(evaluation: MemoryEvaluation, header: string): string {
  const categories = [...new Set(evaluation.results.map((result) => result.category))];
  const score = (results: readonly CaseResult[]) => {
    const judged = results.filter((result) => result.correct !== undefined);
    const right = judged.filter((result) => result.correct === true).length;
    const percent = judged.length === 0 ? '-' : `${Math.round((100 * right) / judged.length)}%`;
    return `${right}/${judged.length} (${percent})`.padEnd(16);
  };
  const of = (category: string | undefined, memory: boolean) => evaluation.results.filter((result) => result.memory === memory && (category === undefined || result.category === category));
  const width = Math.max(18, ...categories.map((category) => category.length + 2));
  const lines = [header, `${'category'.padEnd(width)}${'memory on'.padEnd(16)}memory off`];
  for (const category of categories) lines.push(`${category.padEnd(width)}${score(of(category, true))}${score(of(category, false))}`);
  lines.push(`${'overall'.padEnd(width)}${score(of(undefined, true))}${score(of(undefined, false))}`);
  const unjudged = evaluation.results.filter((result) => result.correct === undefined).length;
  if (unjudged > 0) lines.push(`${unjudged} question(s) the model did not answer or the judge did not grade (left out of the scores).`);
  const injected = evaluation.results.reduce((sum, result) => sum + result.injectedFacts, 0);
  lines.push(`Injected text that became a fact: ${injected}`);
  return lines.map((line) => line.trimEnd()).join('\n');
}
