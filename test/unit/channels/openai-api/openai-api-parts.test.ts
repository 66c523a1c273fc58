import { describe, expect, it } from 'vitest';
import { createApiKeyring } from '../../../../channels/openai-api/api-keyring.js';
import { createAppendOnlyText } from '../../../../channels/openai-api/append-only-text.js';
import { parseChatRequest } from '../../../../channels/openai-api/chat-request.js';
import { conversationOf, ownerOfConversation } from '../../../../channels/openai-api/conversation-of.js';
import { openaiApiConfig } from '../../../../channels/openai-api/openai-api-config.js';
import { describeApiEndpoint } from '../../../../channels/openai-api/openai-api-doctor.js';
import { openaiApiStrings } from '../../../../channels/openai-api/openai-api-strings.js';
import { renderAnswer, renderCard } from '../../../../channels/openai-api/render-answer.js';
import { configWith } from '../../../fakes/config-with.js';

describe('the OpenAI-compatible channel, part by part', () => {
  it('knows a key only as the whole bearer token, and says whether it was missing or wrong', () => {
    const keyring = createApiKeyring([
      { secret: 'sk-alice-0123456789', user: 'alice' },
      { secret: 'sk-bob-0123456789ab', user: 'bob' },
    ]);
    expect(keyring.check('Bearer sk-bob-0123456789ab')).toEqual({ ok: true, userId: 'bob' });
    expect(keyring.check('bearer sk-alice-0123456789')).toEqual({ ok: true, userId: 'alice' });
    expect(keyring.check('Bearer sk-alice-012345678')).toEqual({ ok: false, reason: 'invalid' });
    expect(keyring.check('sk-alice-0123456789')).toEqual({ ok: false, reason: 'missing' });
    expect(keyring.check(undefined)).toEqual({ ok: false, reason: 'missing' });
  });

  it('reads ECHO_API_KEYS as key:user pairs and refuses short keys and users with a slash', () => {
    const schema = openaiApiConfig.schema;
    expect(schema.parse({ keys: 'sk-alice-0123456789:alice, sk-bob-0123456789ab:bob' }).keys).toEqual([
      { secret: 'sk-alice-0123456789', user: 'alice' },
      { secret: 'sk-bob-0123456789ab', user: 'bob' },
    ]);
    expect(schema.safeParse({ keys: 'short:alice' }).success).toBe(false);
    expect(schema.safeParse({ keys: 'sk-alice-0123456789:al/ice' }).success).toBe(false);
    expect(schema.safeParse({ keys: 'sk-alice-0123456789' }).success).toBe(false);
  });

  it('takes the last user message as input, text parts joined, and refuses a request that does not end with one', () => {
    const parsed = parseChatRequest({ model: 'x', temperature: 0.2, messages: [{ role: 'system', content: 's' }, { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:' } }, { type: 'text', text: 'here' }] }] });
    expect(parsed).toMatchObject({ ok: true, request: { input: 'look\nhere', stream: false } });
    expect(parseChatRequest({ messages: [{ role: 'user', content: 'a' }, { role: 'tool', content: 'result', tool_call_id: '1' }] }).ok).toBe(false);
    expect(parseChatRequest({ messages: [] }).ok).toBe(false);
    expect(parseChatRequest({ messages: [{ role: 'user', content: '   ' }] }).ok).toBe(false);
    const first = parseChatRequest({ messages: [{ role: 'user', content: 'start' }] });
    const later = parseChatRequest({ messages: [{ role: 'user', content: 'start' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] });
    // A client that names no conversation: the same chat keeps its first message, so it keeps its session.
    if (!first.ok || !later.ok) throw new Error('both parse');
    expect(first.request.firstMessageDigest).toBe(later.request.firstMessageDigest);
  });

  it('puts every conversation under the key\'s user: the header wins over user, and names with a slash are refused', () => {
    expect(conversationOf({ userId: 'alice', sessionHeader: 'work', user: 'home', firstMessageDigest: 'd1' })).toBe('alice/work');
    expect(conversationOf({ userId: 'alice', user: 'home', firstMessageDigest: 'd1' })).toBe('alice/home');
    expect(conversationOf({ userId: 'alice', firstMessageDigest: 'd1' })).toBe('alice/chat-d1');
    expect(conversationOf({ userId: 'alice', sessionHeader: 'bob/work', firstMessageDigest: 'd1' })).toBeUndefined();
    expect(ownerOfConversation('alice/chat-d1')).toBe('alice');
  });

  it('turns drafts that replace each other into pieces that only append', () => {
    const text = createAppendOnlyText();
    expect(text.draft('Let me')).toEqual(['Let me']);
    expect(text.draft('Let me check')).toEqual([' check']);
    // A new model call after a tool: its draft starts a new paragraph.
    expect(text.draft('Found it')).toEqual(['\n\n', 'Found it']);
    expect(text.draft('Found it.')).toEqual(['.']);
    expect(text.message('a file was sent')).toEqual(['\n\n', 'a file was sent']);
    expect(text.draft('Done')).toEqual(['\n\n', 'Done']);
    expect(text.shown()).toBe('Let me check\n\nFound it.\n\na file was sent\n\nDone');
  });

  it('has a doctor line: off without keys, a failure for a key given twice, a warning for an approver without a key', () => {
    const read = (section: Record<string, unknown>) => openaiApiConfig.schema.parse(section);
    expect(describeApiEndpoint(read({})).status).toBe('off');
    expect(describeApiEndpoint(read({ keys: 'sk-alice-0123456789:alice,sk-alice-0123456789:bob' })).status).toBe('fail');
    expect(describeApiEndpoint(read({ keys: 'sk-alice-0123456789:alice', approvers: 'carol' })).status).toBe('warn');
    expect(describeApiEndpoint(read({ keys: 'sk-alice-0123456789:alice', approvers: 'alice' }))).toMatchObject({ status: 'ok', subject: 'openai-api' });
    expect(openaiApiConfig.read(configWith()).keys).toEqual([]);
  });
});

describe('the approval card as text', () => {
  const card = { approvalId: 'k3m9p2', toolName: 'deploy', summary: 'Deploy the service to staging', argumentsText: '{"target":"staging"}', risk: 'exec', requestedBy: 'bob', expiresAt: '2026-01-01T10:00:00Z', explanation: '', choices: ['once', 'session', 'deny'] } as const;

  it('says what would run and offers the numbered replies the agent reads, and the HTTP decision, in the channel\'s locale', () => {
    const english = renderCard(card, openaiApiStrings.en);
    expect(english.split('\n')).toEqual([
      'Approval needed (k3m9p2): Deploy the service to staging',
      'Tool: deploy (risk exec), requested by bob, expires 2026-01-01T10:00:00Z.',
      'Arguments: {"target":"staging"}',
      'Reply 1 = approve once, 3 = deny; or POST /v1/approvals/k3m9p2 with {"decision":"approve"} or {"decision":"deny"}.',
    ]);
    expect(renderCard(card, openaiApiStrings['zh-CN'])).toContain('需要审批（k3m9p2）：Deploy the service to staging');
    expect(renderAnswer({ kind: 'approval', card }, openaiApiStrings.en).approval).toEqual({ id: 'k3m9p2', summary: 'Deploy the service to staging', tool: 'deploy', expiresAt: '2026-01-01T10:00:00Z' });
  });
});
