import type { BudgetControl } from '../budgets/create-budget-control.js';
import type { Logger } from '../logging/create-logger.js';
import type { ModelFailure, ModelPort, UsageAttribution } from '../model/model-port.js';
import { completeWithinBudget } from './complete-within-budget.js';
import type { FactStore } from './create-fact-store.js';
import { factExtractionPrompt, parseExtractedFacts } from './fact-extraction-prompt.js';
import type { FactScope, FactSource, FactTrust, MemoryFact } from './memory-fact.js';

/**
 * What a person wrote in one message, and nothing else: no quoted message, no attachment, no tool output, no hook
 * or webhook payload. Only this ever reaches the extractor, so text from elsewhere cannot become a fact.
 */
export type AuthoredText = { readonly text: string; readonly source: FactSource; readonly trust: FactTrust; readonly isGroup: boolean };

/** What one extraction did. */
export type FactExtraction =
  | { readonly kind: 'recorded'; readonly facts: readonly MemoryFact[] }
  | { readonly kind: 'invalid-answer' }
  | { readonly kind: 'model-failed'; readonly failure: ModelFailure }
  | { readonly kind: 'budget-stopped' };

/** Extracts facts from a person's own words and records them in their scopes. */
export type FactExtractor = (authored: AuthoredText, attribution: UsageAttribution) => Promise<FactExtraction>;

/** The scopes of a message: its author's, and its chat's (a group's in a group). Pure. */
export function scopesOf(source: FactSource, isGroup: boolean): { readonly person: FactScope; readonly shared: FactScope } {
  return {
    person: { kind: 'person', channel: source.channel, userId: source.authorId },
    shared: { kind: isGroup ? 'group' : 'chat', channel: source.channel, chatId: source.chatId },
  };
}

/** Creates the extractor: one model call with the fixed JSON prompt (origin `memory`), its answer validated, each fact recorded. */
export function createFactExtractor(options: { readonly model: ModelPort; readonly facts: FactStore; readonly budgets?: BudgetControl; readonly logger: Logger }): FactExtractor {
  return async (authored, attribution) => {
    const result = await completeWithinBudget({
      model: options.model,
      ...(options.budgets === undefined ? {} : { budgets: options.budgets }),
      request: {
        messages: [
          { role: 'system', content: factExtractionPrompt },
          { role: 'user', content: `Message from ${authored.source.authorName}:\n${authored.text}` },
        ],
        tools: [],
        maxTokens: 600,
        temperature: 0,
        attribution: { ...attribution, origin: 'memory' },
      },
    });
    if (!result.ok) return result.kind === 'model-failed' ? { kind: 'model-failed', failure: result.failure } : { kind: 'budget-stopped' };
    const extracted = parseExtractedFacts(result.text);
    if (extracted === undefined) {
      options.logger.warn({ sessionKey: attribution.sessionKey }, 'fact extraction answer was not valid JSON of the expected shape; no fact recorded');
      return { kind: 'invalid-answer' };
    }
    const scopes = scopesOf(authored.source, authored.isGroup);
    const recorded: MemoryFact[] = [];
    for (const fact of extracted.facts) {
      const scope = fact.about === 'speaker' ? scopes.person : scopes.shared;
      recorded.push(await options.facts.record({ scope, subject: fact.subject, statement: fact.statement, source: authored.source, trust: authored.trust }));
    }
    return { kind: 'recorded', facts: recorded };
  };
}
