import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { findLastUserText } from '../../fakes/find-last-user-text.js';
import type { TelegramScenario } from '../../fakes/telegram-scenario.js';

/** One event of @octokit/webhooks-examples: GitHub's real payloads, by event name. */
type GitHubExamples = readonly { readonly name: string; readonly examples: readonly Record<string, unknown>[] }[];

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as GitHubExamples;

/** The first real GitHub payload of an event (and action, when given). */
export function githubExample(event: string, action?: string): Record<string, unknown> {
  const found = examples.find((entry) => entry.name === event)?.examples.find((example) => action === undefined || example.action === action);
  if (!found) throw new Error(`no ${event} example${action ? ` with action ${action}` : ''}`);
  return found;
}

/** The chat every hook of the scenario delivers to (a Telegram supergroup). */
export const hookChatId = '-1001234567890';
export const githubSecret = 'It is a secret to everybody';
export const stripeSecret = 'whsec_test_stripe_endpoint_secret';
/** A Standard Webhooks secret: `whsec_` and base64 key bytes. */
export const standardSecret = `whsec_${Buffer.from('standard webhooks scenario key!!').toString('base64')}`;

/** The hooks of the scenario, as a user would write them. */
export const hooksYaml = `
hooks:
  github-prs:
    verify: github
    secret: ${githubSecret}
    when: { header: { x-github-event: pull_request }, body: { action: [opened, reopened] } }
    prompt: |
      Review pull request #{{pull_request.number}} "{{pull_request.title}}" by {{pull_request.user.login}}
      in {{repository.full_name}}: {{pull_request.html_url}}. Summarise it in three lines.
    deliverTo: { channel: telegram, chatId: "${hookChatId}" }
    session: "github:{{repository.full_name}}#{{pull_request.number}}"
    tools: { profile: minimal }
  github-issues:
    verify: github
    secret: ${githubSecret}
    when: { header: { x-github-event: issues } }
    prompt: 'Issue #{{issue.number}} "{{issue.title}}" was {{action}} in {{repository.full_name}}.'
    deliverTo: { channel: telegram, chatId: "${hookChatId}" }
  github-push:
    verify: github
    secret: ${githubSecret}
    when: { header: { x-github-event: push } }
    prompt: 'Push to {{ref}} of {{repository.full_name}} by {{pusher.name}}: {{head_commit.message}}'
    deliverTo: { channel: telegram, chatId: "${hookChatId}" }
  github-workflows:
    verify: github
    secret: ${githubSecret}
    when: { header: { x-github-event: workflow_run }, body: { action: completed } }
    prompt: 'Workflow "{{workflow_run.name}}" run {{workflow_run.id}} finished: {{workflow_run.status}}.'
    deliverTo: { channel: telegram, chatId: "${hookChatId}" }
  stripe-payments:
    verify: stripe
    secret: ${stripeSecret}
    prompt: 'Stripe says {{type}} for {{data.object.id}}.'
    deliverTo: { channel: telegram, chatId: "${hookChatId}" }
  svix-events:
    verify: standard-webhooks
    secret: ${standardSecret}
    prompt: 'Event {{type}} for {{data.email}}.'
    deliverTo: { channel: telegram, chatId: "${hookChatId}" }
`;

/** Signs a body as GitHub does: X-Hub-Signature-256 = sha256=<hex HMAC-SHA256 of the raw body>. */
export function githubSignature(rawBody: string, secret = githubSecret): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** POSTs a payload to a hook as GitHub sends it: event name, delivery id and signature headers. */
export async function postGitHub(
  scenario: TelegramScenario,
  input: { readonly hook: string; readonly event: string; readonly payload: unknown; readonly deliveryId?: string; readonly signature?: string; readonly headers?: Readonly<Record<string, string>> },
): Promise<Response> {
  const rawBody = JSON.stringify(input.payload);
  return postHook(scenario, input.hook, rawBody, {
    'x-github-event': input.event,
    'x-github-delivery': input.deliveryId ?? randomUUID(),
    'x-hub-signature-256': input.signature ?? githubSignature(rawBody),
    'user-agent': 'GitHub-Hookshot/044aadd',
    ...input.headers,
  });
}

/** POSTs a raw JSON body to `/hooks/<name>` on the app's gateway. */
export async function postHook(scenario: TelegramScenario, hook: string, rawBody: string, headers: Readonly<Record<string, string>>): Promise<Response> {
  const address = scenario.testApp.app.gateway?.address();
  if (!address) throw new Error('the gateway is not listening');
  return fetch(`http://127.0.0.1:${address.port}/hooks/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: rawBody });
}

/** The user texts of model requests so far whose text contains `part`. */
export function modelPromptsWith(scenario: TelegramScenario, part: string): string[] {
  return scenario.modelRequests().map((request) => findLastUserText(request.body)).filter((text) => text.includes(part));
}
