import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../fakes/start-test-app.js';
import { apiKeys, type OpenaiApiWorld, postJson, startOpenaiApiWorld } from './openai-api-world.js';

let world: OpenaiApiWorld;

beforeAll(async () => {
  world = await startOpenaiApiWorld();
});
afterAll(async () => {
  await world.stop();
});

type CompletionBody = { readonly choices: readonly { readonly message: { readonly content: string } }[]; readonly echo: { readonly approval?: { readonly id: string; readonly summary: string } } };

async function ask(key: string, conversation: string, text: string): Promise<CompletionBody> {
  const answer = await postJson({ baseUrl: world.baseUrl, path: '/v1/chat/completions', key, body: { model: 'echo-agent', messages: [{ role: 'user', content: text }], user: conversation } });
  expect(answer.status).toBe(200);
  return answer.body as CompletionBody;
}

const decide = (key: string, id: string, decision = 'approve') => postJson({ baseUrl: world.baseUrl, path: `/v1/approvals/${id}`, key, body: { decision } });

describe('approvals over the OpenAI-compatible endpoint', () => {
  it('answers a risky call with the pending card; only an approver decides it over HTTP; the continuation comes with the next request', async () => {
    const asked = await ask(apiKeys.bob, 'ops', 'please deploy staging');
    const card = asked.echo.approval;
    expect(card?.summary).toBe('Deploy the service to staging');
    expect(asked.choices[0]?.message.content).toContain(`Approval needed (${card?.id}): Deploy the service to staging`);
    expect(world.deployRuns).toEqual([]);
    const id = card?.id ?? '';

    // carol is neither the requester nor an approver: the card is not confirmed to exist for her.
    expect((await decide(apiKeys.carol, id)).status).toBe(404);
    // bob raised it but alice alone approves here.
    const bobs = await decide(apiKeys.bob, id);
    expect(bobs.status).toBe(403);
    expect(bobs.body).toMatchObject({ error: { type: 'permission_error' } });
    // A numbered reply from bob in his chat is refused by the runtime as well, and said so.
    const numbered = await ask(apiKeys.bob, 'ops', '1');
    expect(numbered.choices[0]?.message.content).not.toContain('done:');
    expect((await postJson({ baseUrl: world.baseUrl, path: `/v1/approvals/${id}`, body: { decision: 'approve' } })).status).toBe(401);
    expect((await decide(apiKeys.alice, 'nosuchcard1')).status).toBe(404);
    expect(world.deployRuns).toEqual([]);

    const decided = await decide(apiKeys.alice, id);
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ id, status: 'approved' });
    await waitFor(() => world.deployRuns.length > 0, 'the approved call to run');
    await world.app.app.bus.idle();
    expect(world.deployRuns).toEqual(['staging']);
    // Decided once: a second decision changes nothing.
    expect((await decide(apiKeys.alice, id, 'deny')).status).toBe(409);

    const next = await ask(apiKeys.bob, 'ops', 'anything new?');
    expect(next.choices[0]?.message.content).toBe('done: deployed to staging\n\necho: anything new?');
    expect(world.deployRuns).toEqual(['staging']);
  });

  it('lets an approver decide her own card with a numbered reply in the conversation, answered by the continued turn', async () => {
    const asked = await ask(apiKeys.alice, 'releases', 'please deploy production');
    expect(asked.echo.approval?.summary).toBe('Deploy the service to production');
    const approved = await ask(apiKeys.alice, 'releases', '1');
    expect(approved.choices[0]?.message.content).toBe('done: deployed to production');
    expect(world.deployRuns).toContain('production');
  });

  it('shows the card in a stream too, with its id in the last chunk', async () => {
    const response = await fetch(`${world.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKeys.alice}` },
      body: JSON.stringify({ model: 'echo-agent', messages: [{ role: 'user', content: 'please deploy canary' }], user: 'streamed-card', stream: true }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text()).split('\n\n').filter((line) => line.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((line) => JSON.parse(line.slice('data: '.length)) as { readonly choices: readonly { readonly delta: { readonly content?: string } }[]; readonly echo?: { readonly approval?: { readonly id: string } } });
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    const id = chunks.at(-1)?.echo?.approval?.id;
    expect(id).toMatch(/^[a-z0-9]+$/);
    expect(content).toContain(`Approval needed (${id}): Deploy the service to canary`);
    expect((await decide(apiKeys.alice, id ?? '', 'deny')).body).toMatchObject({ status: 'denied' });
    await world.app.app.bus.idle();
    expect(world.deployRuns).not.toContain('canary');
  });
});
