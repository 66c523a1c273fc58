import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, type OpenaiApiWorld, postJson, startOpenaiApiWorld } from './openai-api-world.js';

let world: OpenaiApiWorld;

beforeAll(async () => {
  // Each scripted model call reports 20 tokens: a user may spend about two calls a day.
  world = await startOpenaiApiWorld({ yaml: ['budgets:', '  user: { daily: { tokens: 30 } }'] });
});
afterAll(async () => {
  await world.stop();
});

const ask = (key: string, conversation: string, text: string) => postJson({ baseUrl: world.baseUrl, path: '/v1/chat/completions', key, body: { model: 'echo-agent', messages: [{ role: 'user', content: text }], user: conversation } });

describe('budgets bind the user a key stands for', () => {
  it('stops one key\'s user with 429 budget_exhausted, across its conversations, while another key\'s user goes on', async () => {
    const statuses: number[] = [];
    for (const conversation of ['one', 'two', 'three', 'four']) statuses.push((await ask(apiKeys.carol, conversation, `spend in ${conversation}`)).status);
    expect(statuses).toContain(200);
    const refusedAt = statuses.indexOf(429);
    expect(refusedAt).toBeGreaterThan(0);
    expect(statuses.slice(refusedAt).every((status) => status === 429)).toBe(true);
    const refused = await ask(apiKeys.carol, 'five', 'one more?');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { type: 'rate_limit_error', code: 'budget_exhausted' } });
    expect((await ask(apiKeys.bob, 'one', 'my own budget')).status).toBe(200);
  });
});
