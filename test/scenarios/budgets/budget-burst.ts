import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { type GatewayAnswer, postSigned } from '../../fakes/webhook-client.js';

/** The webhook secret of the burst scenarios. */
export const burstSecret = 'budget-burst-secret';

/** A config file with one global budget of 10 tokens a day (no soft-limit card) for the burst scenarios. */
export function writeTenTokenBudget(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'echo-budget-burst-')), 'budget.yaml');
  writeFileSync(file, 'budgets:\n  softLimit: 1\n  global: { daily: { tokens: 10 } }\n');
  return file;
}

/** A model that takes `delayMs` and reports 2 tokens per call (1 in, 1 out), as in the issue. */
export function answerSlowlyWithTwoTokens(model: ScriptedModelServer, delayMs: number): void {
  model.setFallback({ text: 'done', usage: { input: 1, output: 1 }, delayMs });
}

/** The chat-completion requests the model server received. */
export function modelCalls(model: ScriptedModelServer): number {
  return model.requests.filter((request) => request.path === '/v1/chat/completions').length;
}

/** Sends `count` signed turns at once with ?wait=true, spread over the gateways, each from its own sender and chat (`label` keeps bodies apart). */
export function sendBurst(baseUrls: readonly string[], count: number, label = 'burst'): Promise<GatewayAnswer[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      postSigned({ baseUrl: baseUrls[index % baseUrls.length] ?? '', secret: burstSecret, body: { chatId: `${label}-${index}`, senderId: `sender-${index}`, text: `${label} turn ${index}` }, query: '?wait=true' }),
    ),
  );
}

/** The tokens of the "global daily: X of 10 tokens" line /usage answers with, asked through the gateway. */
export async function globalDailyUsed(baseUrl: string): Promise<number> {
  const answer = await postSigned({ baseUrl, secret: burstSecret, body: { chatId: 'usage', senderId: 'usage', text: '/usage' }, query: '?wait=true' });
  const reply = (answer.body as { reply?: string }).reply ?? '';
  const line = /global daily: ([\d,]+) of 10 tokens/.exec(reply);
  if (!line?.[1]) throw new Error(`no global daily line in /usage: ${reply}`);
  return Number(line[1].replaceAll(',', ''));
}
