import { describe, expect, it } from 'vitest';
import { parseMessageRequest } from '../../../../channels/webhook/message-request.js';
import { requestToEvent } from '../../../../channels/webhook/to-event.js';

const strict = { allowHttpCallbacks: false };

describe('POST /v1/messages body and event', () => {
  it('accepts the documented shape and drops unknown keys', () => {
    const parsed = parseMessageRequest({ chatId: 'c', senderId: 's', text: 't', callbackUrl: 'https://example.com/hook', origin: 'user', unattended: false }, strict);
    expect(parsed).toEqual({ ok: true, request: { chatId: 'c', senderId: 's', text: 't', callbackUrl: 'https://example.com/hook' } });
  });

  it('names every failing field by its path', () => {
    const parsed = parseMessageRequest({ chatId: 'x'.repeat(129), text: '', callbackUrl: 'ftp://example.com' }, strict);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fields.map((field) => field.path).sort()).toEqual(['callbackUrl', 'chatId', 'text']);
    const notAnObject = parseMessageRequest([1, 2], strict);
    expect(notAnObject).toMatchObject({ ok: false, fields: [{ path: '(body)' }] });
  });

  it('takes http callbacks only when tests allow them', () => {
    expect(parseMessageRequest({ chatId: 'c', text: 't', callbackUrl: 'http://127.0.0.1:9/x' }, strict).ok).toBe(false);
    expect(parseMessageRequest({ chatId: 'c', text: 't', callbackUrl: 'http://127.0.0.1:9/x' }, { allowHttpCallbacks: true }).ok).toBe(true);
  });

  it('builds an unattended webhook-origin event whose id is the run id, in the chat session', () => {
    const event = requestToEvent({ chatId: 'orders', text: 'hi' }, { channel: 'webhook', runId: 'run-1', now: new Date('2030-01-01T00:00:00Z') });
    expect(event).toMatchObject({
      type: 'message-received',
      id: 'run-1',
      channel: 'webhook',
      chatId: 'orders',
      sessionKey: 'webhook:orders',
      origin: 'system',
      unattended: true,
      sender: { id: 'webhook' },
      text: 'hi',
      at: '2030-01-01T00:00:00.000Z',
    });
    expect(requestToEvent({ chatId: 'c', senderId: 'erp', text: 'x' }, { channel: 'webhook', runId: 'r', now: new Date() }).sender.id).toBe('erp');
  });
});
