import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCard, smartModel, startSmartScenario } from '../../fakes/smart-approvals-world.js';
import { waitFor } from '../../fakes/start-test-app.js';
import type { TelegramScenario } from '../../fakes/telegram-scenario.js';
import { gatewayOf, postSigned } from '../../fakes/webhook-client.js';

let scenario: TelegramScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

/** A port nothing listens on: a reviewer endpoint that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

async function reviewedOutcomes(app: TelegramScenario): Promise<unknown[]> {
  const file = join(app.testApp.dataDir, 'audit', 'audit.jsonl');
  return waitFor(() => {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const outcomes = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.kind === 'approval-reviewed')
      .map((entry) => entry.outcome);
    return outcomes.length > 0 ? outcomes : undefined;
  }, 'a reviewer audit entry');
}

describe('smart approvals: a reviewer that fails asks a person, never approves', () => {
  it.each([
    ['answers garbage', {}, { text: 'Looks fine to me, go ahead and approve it!' }, 'the reviewer gave no clear answer', 'escalate:unparsable'],
    ['times out', { extraYaml: '  reviewerTimeoutMs: 300' }, { text: 'APPROVE: too late', delayMs: 5000 }, 'the reviewer did not answer within 300 ms', 'escalate:timeout'],
  ])('a reviewer that %s leads to a card', async (_what, options, reviewerStep, note, outcome) => {
    const world = await startSmartScenario(options);
    scenario = world.scenario;
    scenario.model.setFallback(smartModel(() => reviewerStep));
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('deploy prod'));
    const card = await scenario.waitForBotMessage(isCard, 'the card');
    expect(card.text).toContain(`Reviewer: ${note}`);
    expect(world.deploy.runs).toEqual([]);
    expect(world.reviewerRequests()).toHaveLength(1);
    expect(await reviewedOutcomes(scenario)).toEqual([outcome]);
  });

  it('a reviewer model that is down leads to a card', async () => {
    const port = await closedPort();
    const reviewerModel = ['  reviewerModel:', '    provider: openai', `    baseUrl: http://127.0.0.1:${port}/v1`, '    apiKey: reviewer-key', '    name: reviewer-small'].join('\n');
    const world = await startSmartScenario({ extraYaml: reviewerModel });
    scenario = world.scenario;
    scenario.model.setFallback(smartModel(() => ({ text: 'APPROVE: never asked' })));
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('deploy prod'));
    const card = await scenario.waitForBotMessage(isCard, 'the card');
    expect(card.text).toContain('Reviewer: the reviewer could not be reached (network)');
    expect(world.reviewerRequests()).toEqual([]);
    expect(world.deploy.runs).toEqual([]);
    expect(await reviewedOutcomes(scenario)).toEqual(['escalate:unavailable']);
  });
});

describe('smart approvals: unattended turns keep their fail-closed rules', () => {
  it('a webhook turn never uses the reviewer: the call that must ask goes to an approver as a card', async () => {
    const secret = 'smart-webhook-secret';
    const world = await startSmartScenario({ webhookSecret: secret });
    scenario = world.scenario;
    scenario.model.setFallback(smartModel(() => ({ text: 'APPROVE: would approve anything' })));
    const { baseUrl } = gatewayOf(scenario.testApp.app);
    const answer = await postSigned({ baseUrl, secret, body: { chatId: 'cms', senderId: 'cms', text: 'publish home' } });
    expect(answer.status).toBe(202);
    const card = await scenario.waitForBotMessage((message) => message.chatId === '1001' && isCard(message), 'the card in the approver chat');
    expect(card.text).not.toContain('Reviewer:');
    expect(world.publish.runs).toEqual([]);
    expect(world.reviewerRequests()).toEqual([]);
  });

  it('the same write call in an attended turn is the reviewer\'s to settle', async () => {
    const world = await startSmartScenario();
    scenario = world.scenario;
    scenario.model.setFallback(smartModel(() => ({ text: 'APPROVE: publishes one page' })));
    const person = scenario.client({ userId: 1001 });
    await person.sendMessage(person.makeMessage('publish home'));
    await scenario.waitForBotMessage((message) => message.text === 'done: published home', 'the published page');
    expect(world.publish.runs).toEqual(['home']);
    expect(world.reviewerRequests()).toHaveLength(1);
  });
});
