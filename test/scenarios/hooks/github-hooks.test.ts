import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHooks } from '../../../src/cli/run-hooks.js';
import { createHookDeliveries } from '../../../src/hooks/hook-deliveries.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { githubExample, githubSignature, hookChatId, hooksYaml, modelPromptsWith, postGitHub, postHook, standardSecret, stripeSecret } from './hooks-scenario.js';

describe('named hooks: real senders in, answers out to a Telegram chat', () => {
  let scenario: TelegramScenario;
  beforeAll(async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: hooksYaml });
    await scenario.testApp.app.start();
  });
  afterAll(async () => {
    await scenario?.stop();
  });

  const chatMessages = () => scenario.botMessages(Number(hookChatId));
  const modelCalls = () => scenario.modelRequests().length;
  const settled = async () => {
    await scenario.testApp.app.bus.idle();
  };

  it('a pull_request opened, signed as GitHub signs it, renders the template, reaches the model and is answered in the chat', async () => {
    const payload = githubExample('pull_request', 'opened');
    const response = await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload });
    expect(response.status).toBe(202);
    const prompt = await waitFor(() => modelPromptsWith(scenario, 'Review pull request #')[0], 'the model asked about the PR');
    expect(prompt).toContain('Review pull request #2 "Update the README with new information." by Codertocat');
    expect(prompt).toContain('in Codertocat/Hello-World: https://github.com/Codertocat/Hello-World/pull/2.');
    // The payload's text reaches the model fenced and marked as external, untrusted content.
    expect(prompt).toMatch(/external, untrusted content/);
    expect(prompt).toMatch(/^EXTERNAL-CONTENT-[a-z0-9]+$/m);
    const answer = await waitFor(() => chatMessages().find((message) => message.text.includes('Review pull request #2')), 'the answer in the Telegram chat');
    // Named and linked back (Telegram shows the link as a link).
    expect(answer.text.startsWith('[hook github-prs] <a href="https://github.com/Codertocat/Hello-World/pull/2">')).toBe(true);
  });

  it('issues, push and workflow_run payloads from GitHub each render and are answered in the chat', async () => {
    const issue = githubExample('issues', 'opened');
    const push = githubExample('push');
    const workflow = githubExample('workflow_run', 'completed');
    expect((await postGitHub(scenario, { hook: 'github-issues', event: 'issues', payload: issue })).status).toBe(202);
    expect((await postGitHub(scenario, { hook: 'github-push', event: 'push', payload: push })).status).toBe(202);
    expect((await postGitHub(scenario, { hook: 'github-workflows', event: 'workflow_run', payload: workflow })).status).toBe(202);
    const issueFields = issue as { issue: { number: number; title: string } };
    const issueLine = `Issue #${issueFields.issue.number} "${issueFields.issue.title}" was opened in Codertocat/Hello-World.`;
    const pushLine = `Push to ${String(push.ref)} of Codertocat/Hello-World by Codertocat: Adding a .gitignore file`;
    const run = (workflow as { workflow_run: { name: string; id: number; status: string } }).workflow_run;
    const workflowLine = `Workflow "${run.name}" run ${run.id} finished: ${run.status}.`;
    for (const line of [issueLine, pushLine, workflowLine]) {
      await waitFor(() => modelPromptsWith(scenario, line)[0], `the model asked: ${line}`);
      await waitFor(() => chatMessages().find((message) => message.text.includes(line.slice(0, 20))), `the answer to: ${line}`);
    }
    expect(chatMessages().some((message) => message.text.startsWith('[hook github-workflows] <a href="https://github.com/octo-org/octo-repo/actions/runs/'))).toBe(true);
  });

  it('a redelivery with the same X-GitHub-Delivery runs once and gets the first answer', async () => {
    const payload = { ...githubExample('pull_request', 'opened'), number: 77, pull_request: { ...(githubExample('pull_request', 'opened').pull_request as object), number: 77, title: 'Redelivered once' } };
    const deliveryId = randomUUID();
    const first = await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload, deliveryId });
    expect(first.status).toBe(202);
    await waitFor(() => chatMessages().find((message) => message.text.includes('Redelivered once')), 'the first answer');
    await settled();
    const callsAfterFirst = modelCalls();
    const again = await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload, deliveryId });
    expect(again.status).toBe(202);
    expect(await again.json()).toMatchObject({ duplicate: true, deliveryId });
    await settled();
    expect(modelCalls()).toBe(callsAfterFirst);
    expect(modelPromptsWith(scenario, 'Redelivered once')).toHaveLength(1);
    expect(chatMessages().filter((message) => message.text.includes('Redelivered once'))).toHaveLength(1);
  });

  it('a wrong signature is refused with 401 and runs nothing', async () => {
    const before = modelCalls();
    const payload = githubExample('pull_request', 'opened');
    const wrong = await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload, signature: githubSignature(JSON.stringify(payload), 'not the secret') });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: 'signature-invalid' } });
    const missing = await postHook(scenario, 'github-prs', JSON.stringify(payload), { 'x-github-event': 'pull_request', 'x-github-delivery': randomUUID() });
    expect(missing.status).toBe(401);
    await settled();
    expect(modelCalls()).toBe(before);
  });

  it('a body that does not match when gets 204 and runs nothing', async () => {
    const before = modelCalls();
    const closed = githubExample('pull_request', 'closed');
    expect((await postGitHub(scenario, { hook: 'github-prs', event: 'pull_request', payload: closed })).status).toBe(204);
    // The right action under another event header does not match either.
    expect((await postGitHub(scenario, { hook: 'github-prs', event: 'issues', payload: githubExample('pull_request', 'opened') })).status).toBe(204);
    await settled();
    expect(modelCalls()).toBe(before);
  });

  it('Stripe: a signed event runs; a stale timestamp is refused with 401 and runs nothing', async () => {
    const event = { id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', type: 'invoice.payment_failed', data: { object: { id: 'in_1MtHbELkdIwHu7ixl4OzzPMv', object: 'invoice' } } };
    const rawBody = JSON.stringify(event);
    const sign = (timestamp: number) => `t=${timestamp},v1=${createHmac('sha256', stripeSecret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
    const now = Math.floor(Date.now() / 1000);
    const before = modelCalls();
    const stale = await postHook(scenario, 'stripe-payments', rawBody, { 'stripe-signature': sign(now - 301) });
    expect(stale.status).toBe(401);
    await settled();
    expect(modelCalls()).toBe(before);
    expect((await postHook(scenario, 'stripe-payments', rawBody, { 'stripe-signature': sign(now) })).status).toBe(202);
    await waitFor(() => modelPromptsWith(scenario, 'Stripe says invoice.payment_failed for in_1MtHbELkdIwHu7ixl4OzzPMv.')[0], 'the model asked about the invoice');
    // Stripe retries the same event id: it runs once.
    const retry = await postHook(scenario, 'stripe-payments', rawBody, { 'stripe-signature': sign(now) });
    expect(retry.status).toBe(202);
    await settled();
    expect(modelPromptsWith(scenario, 'Stripe says invoice.payment_failed')).toHaveLength(1);
  });

  it('Standard Webhooks: a message signed by the standardwebhooks library runs; one signed with another secret gets 401', async () => {
    const rawBody = JSON.stringify({ type: 'user.created', data: { email: 'ada@example.com' } });
    const id = `msg_${randomUUID()}`;
    const timestamp = new Date();
    const headersOf = (secret: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, timestamp, rawBody) });
    const before = modelCalls();
    const other = await postHook(scenario, 'svix-events', rawBody, headersOf(`whsec_${Buffer.from('another key entirely, not ours').toString('base64')}`));
    expect(other.status).toBe(401);
    await settled();
    expect(modelCalls()).toBe(before);
    expect((await postHook(scenario, 'svix-events', rawBody, headersOf(standardSecret))).status).toBe(202);
    await waitFor(() => modelPromptsWith(scenario, 'Event user.created for ada@example.com.')[0], 'the model asked about the event');
  });

  it('npm run hooks shows each hook with its last deliveries: received, verified, matched, run, delivered', async () => {
    const { app } = scenario.testApp;
    const deliveries = createHookDeliveries(app.store);
    const text = await waitFor(async () => {
      const recent = new Map(await Promise.all(Object.keys(app.config.hooks).map(async (name) => [name, await deliveries.recent(name)] as const)));
      const listed = formatHooks(app.config, recent);
      return listed.includes('run completed → delivered') ? listed : undefined;
    }, 'a delivery marked run and delivered');
    const prs = text.slice(text.indexOf('github-prs  POST /hooks/github-prs  verify github  → telegram:-1001234567890'), text.indexOf('github-issues'));
    expect(prs).toMatch(/202 {2}\S+ {2}received → verified → matched → run completed → delivered/);
    expect(prs).toMatch(/received → verified → duplicate, not run {2}\(redelivery/);
    expect(prs).toMatch(/204 {2}\S+ {2}received → verified → not matched {2}\(when: header x-github-event does not match\)/);
    expect(text).toContain('stripe-payments  POST /hooks/stripe-payments  verify stripe');
  });

  it('/metrics counts deliveries by hook and outcome', async () => {
    const address = scenario.testApp.app.gateway?.address();
    const metrics = await (await fetch(`http://127.0.0.1:${address?.port}/metrics`)).text();
    expect(metrics).toMatch(/echo_hook_deliveries_total\{hook="github-prs",outcome="accepted"\} [1-9]/);
    expect(metrics).toMatch(/echo_hook_deliveries_total\{hook="github-prs",outcome="duplicate"\} 1/);
    expect(metrics).toMatch(/echo_hook_deliveries_total\{hook="github-prs",outcome="unverified"\} 2/);
    expect(metrics).toMatch(/echo_hook_deliveries_total\{hook="stripe-payments",outcome="unverified"\} 1/);
    expect(metrics).toMatch(/echo_hook_deliveries_total\{hook="github-prs",outcome="not-matched"\} 2/);
  });
});
