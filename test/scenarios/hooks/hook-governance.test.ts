import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/registry/define-tool.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { githubExample, githubSecret, hookChatId, postGitHub } from './hooks-scenario.js';

/** A write tool that always asks a person, and counts its runs. */
function createLabelTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'add_label',
    description: 'Add a label to a pull request.',
    input: z.object({ label: z.string() }),
    risk: 'write',
    approval: 'always',
    sideEffects: true,
    describeForApproval: (input) => `Add the label ${input.label}`,
    execute: async (input) => {
      runs.push(input.label);
      return { ok: true, output: `labelled ${input.label}` };
    },
  });
  return { tool, runs };
}

const hookYaml = (extra: string) => `
approvals:
  explain: false
${extra}
hooks:
  github-prs:
    verify: github
    secret: ${githubSecret}
    prompt: 'Label pull request #{{pull_request.number}}.'
    deliverTo: { channel: telegram, chatId: "${hookChatId}" }
    tools: { alsoAllow: [add_label] }
    budget: { daily: { tokens: 25 } }
`;

describe("a hook's turn is governed as its own: approvals never automatic, its own budget", () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('a call that must ask waits for a card in the approver’s chat (approvals.route: approvers) and does not run', async () => {
    const label = createLabelTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', approvers: '1001', yaml: hookYaml('  route: approvers'), extraTools: [label.tool] });
    await scenario.testApp.app.start();
    scenario.model.enqueue({ toolCalls: [{ name: 'add_label', arguments: { label: 'needs-review' } }] }, { text: 'Waiting for approval.' });
    expect((await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload: githubExample('pull_request', 'opened') })).status).toBe(202);
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    expect(card.chatId).toBe('1001');
    expect(card.text).toContain('needs-review');
    await scenario.testApp.app.bus.idle();
    expect(label.runs).toEqual([]);
  });

  it('without approvers it can reach, the call is refused and never runs', async () => {
    const label = createLabelTool();
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: hookYaml(''), extraTools: [label.tool] });
    await scenario.testApp.app.start();
    scenario.model.enqueue({ toolCalls: [{ name: 'add_label', arguments: { label: 'needs-review' } }] }, { text: 'Could not label it.' });
    expect((await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload: githubExample('pull_request', 'opened') })).status).toBe(202);
    await scenario.waitForBotMessage((message) => message.text.includes('Could not label it.'), 'the answer');
    expect(label.runs).toEqual([]);
    expect(scenario.botMessages().some((message) => (message.keyboard?.length ?? 0) > 0)).toBe(false);
  });

  it('its budget is its own: once hook:<name> has used it, the next delivery stops before the model', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: hookYaml('') });
    await scenario.testApp.app.start();
    // The first turn reports 30 tokens: past the hook's 25-token day.
    scenario.model.enqueue({ text: 'First review.', usage: { input: 20, output: 10 } });
    expect((await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload: githubExample('pull_request', 'opened') })).status).toBe(202);
    await scenario.waitForBotMessage((message) => message.text.includes('First review.'), 'the first answer');
    await scenario.testApp.app.bus.idle();
    const calls = scenario.modelRequests().length;
    expect((await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload: githubExample('pull_request', 'opened') })).status).toBe(202);
    await waitFor(() => scenario?.botMessages(Number(hookChatId)).length === 2 || undefined, 'the second answer');
    await scenario.testApp.app.bus.idle();
    expect(scenario.modelRequests().length).toBe(calls);
    const statuses = await scenario.testApp.app.budgets.statuses({ origin: 'system', sessionKey: 'hooks:github-prs', channel: 'telegram', chatId: hookChatId, jobId: 'hook:github-prs' });
    expect(statuses.find((status) => status.scope === 'job')).toMatchObject({ id: 'hook:github-prs', limit: 25, used: 30 });
  });
});
