import { afterEach, describe, expect, it } from 'vitest';
import { postCallback } from '../../../../channels/webhook/post-callback.js';
import { createCallbackReceiver, signForTest } from '../../../fakes/webhook-client.js';

const policy = { attempts: 3, baseDelayMs: 1, timeoutMs: 5000 };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function receiver(statuses: number[]) {
  const created = await createCallbackReceiver({ statuses });
  closers.push(created.close);
  return created;
}

const allowAll = async () => ({ ok: true }) as const;

describe('callback POSTs', () => {
  it('signs the body like inbound requests and retries 5xx and 429 until it is taken', async () => {
    const target = await receiver([500, 429]);
    const delivery = await postCallback({ url: target.url, secret: 's3cret', payload: { text: 'hi' }, policy, checkUrl: allowAll });
    expect(delivery).toEqual({ ok: true });
    expect(target.received).toHaveLength(3);
    const last = target.received[2];
    expect(last?.body).toBe('{"text":"hi"}');
    expect(last?.headers['x-echo-signature']).toBe(signForTest('s3cret', String(last?.headers['x-echo-timestamp']), '{"text":"hi"}'));
  });

  it('does not retry a 4xx refusal, and says so', async () => {
    const target = await receiver([400]);
    const delivery = await postCallback({ url: target.url, secret: 's', payload: {}, policy, checkUrl: allowAll });
    expect(delivery).toEqual({ ok: false, error: 'the callback answered HTTP 400', retryable: false });
    expect(target.received).toHaveLength(1);
  });

  it('gives up after the attempts when nothing answers, with the reason', async () => {
    const target = await receiver([]);
    await target.close();
    const delivery = await postCallback({ url: target.url, secret: 's', payload: {}, policy, checkUrl: allowAll });
    expect(delivery).toMatchObject({ ok: false, retryable: true, error: expect.stringContaining('after 3 attempts') });
  });
});
