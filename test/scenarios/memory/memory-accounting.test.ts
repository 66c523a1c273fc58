// The memory's own model calls are accounted like any other: the summary under origin `compaction`, fact extraction
// under origin `memory`, each to the chat and the person whose conversation it was.
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../fakes/start-test-app.js';
import type { UsageTotals } from '../../../src/budgets/usage-totals.js';
import { compactionPrompt } from '../../../src/memory/compaction-prompt.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const tokens = (totals: UsageTotals) => totals.inputTokens + totals.cachedInputTokens + totals.outputTokens;

describe('memory accounting', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('counts summaries as origin compaction and fact extraction as origin memory, for the chat and the person', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: 'approvals:\n  explain: false\nagent:\n  historyBudgetChars: 1000\nmemory:\n  enabled: true\n' });
    const current = scenario;
    current.model.setFallback((body, context) => {
      const first = body.messages?.[0]?.content;
      if (first === compactionPrompt) return { text: 'A summary.', usage: { input: 200, output: 20 } };
      if (first === factExtractionPrompt) return { text: '{"facts":[]}', usage: { input: 50, output: 5 } };
      return { text: `ok: ${context.lastUserText}`, usage: { input: 10, output: 1 } };
    });
    const alice = current.client({ userId: 1001 });
    for (let index = 0; index < 6; index += 1) {
      const text = `message ${index} ${'x'.repeat(200)}`;
      await alice.sendMessage(alice.makeMessage(text));
      await current.waitForBotMessage((message) => message.text === `ok: ${text}`, `the answer to message ${index}`);
    }
    const { app } = current.testApp;
    await app.bus.idle();
    // Facts are extracted after each answer went out, beside the bus: wait for the sixth turn's extraction too.
    await waitFor(() => current.modelRequests().filter((request) => request.body?.messages?.[0]?.content === factExtractionPrompt).length >= 6, 'the extraction after each of the six turns');
    const requests = current.modelRequests();
    const summaries = requests.filter((request) => request.body?.messages?.[0]?.content === compactionPrompt).length;
    const extractions = requests.filter((request) => request.body?.messages?.[0]?.content === factExtractionPrompt).length;
    expect(summaries).toBeGreaterThan(0);
    expect(extractions).toBe(6);

    const { day } = app.budgets.ledger.periods();
    const totals = (dimension: 'chat' | 'user' | 'origin', id: string) => app.budgets.ledger.totals({ period: day, dimension, id });
    // The last extraction's usage is counted when its answer is in, a moment after the request was seen.
    await waitFor(async () => (await totals('origin', 'memory')).calls >= extractions, 'the usage of every extraction counted');
    expect(tokens(await totals('origin', 'compaction'))).toBe(summaries * 220);
    expect((await totals('origin', 'compaction')).calls).toBe(summaries);
    expect(tokens(await totals('origin', 'memory'))).toBe(extractions * 55);
    expect(tokens(await totals('origin', 'user'))).toBe(6 * 11);
    expect(tokens(await totals('user', 'telegram:1001'))).toBe(summaries * 220 + extractions * 55 + 6 * 11);
    expect(tokens(await totals('chat', 'telegram:1001'))).toBe(summaries * 220 + extractions * 55 + 6 * 11);
  });
});
