import { describe, expect, it } from 'vitest';
import { deriveSigningKey } from '../../../../channels/qq/derive-signing-key.js';
import { handleCallback } from '../../../../channels/qq/handle-callback.js';
import { signCallback } from '../../../../channels/qq/sign-callback.js';

const key = deriveSigningKey('naOC0ocQE3shWLAfffVLB1rhYPG7');
const settings = { key, appId: '11111111' };
const now = new Date(1725442341_000);

function signed(payload: unknown, extra: Record<string, string> = {}) {
  const rawBody = JSON.stringify(payload);
  return { rawBody, now, headers: { 'x-signature-timestamp': '1725442341', 'x-signature-ed25519': signCallback(key, { timestamp: '1725442341', body: rawBody }), 'x-bot-appid': '11111111', ...extra } };
}

describe('handleCallback', () => {
  it('acknowledges a signed dispatch with op 12 and hands the event over', () => {
    const event = { op: 0, id: 'C2C_MESSAGE_CREATE:1', t: 'C2C_MESSAGE_CREATE', d: { id: 'm1' } };
    const outcome = handleCallback(settings, signed(event));
    expect(outcome).toMatchObject({ status: 200, dispatch: { op: 0, t: 'C2C_MESSAGE_CREATE', id: 'C2C_MESSAGE_CREATE:1', d: { id: 'm1' } } });
    expect(JSON.parse(outcome.body)).toEqual({ op: 12, d: 0 });
  });

  it('answers a signed op 13 with plain_token and its signature', () => {
    const outcome = handleCallback(settings, signed({ op: 13, d: { plain_token: 'Arq0D5A61EgUu4OxUvOp', event_ts: '1725442341' } }));
    expect(outcome.status).toBe(200);
    expect(JSON.parse(outcome.body)).toEqual({ plain_token: 'Arq0D5A61EgUu4OxUvOp', signature: signCallback(key, { timestamp: '1725442341', body: 'Arq0D5A61EgUu4OxUvOp' }) });
    expect(outcome.dispatch).toBeUndefined();
  });

  it('refuses a dispatch whose body was changed after signing, with nothing handed over', () => {
    const request = signed({ op: 0, t: 'C2C_MESSAGE_CREATE', d: { id: 'm1' } });
    const outcome = handleCallback(settings, { ...request, rawBody: request.rawBody.replace('m1', 'm2') });
    expect(outcome.status).toBe(401);
    expect(outcome.dispatch).toBeUndefined();
  });

  it('refuses a request for another bot, a body that is not a payload, and opcodes not sent to callbacks', () => {
    expect(handleCallback(settings, signed({ op: 0, t: 'X', d: {} }, { 'x-bot-appid': '22222222' })).status).toBe(403);
    expect(handleCallback(settings, signed([1, 2, 3])).status).toBe(400);
    expect(handleCallback(settings, signed({ op: 'zero' })).status).toBe(400);
    expect(handleCallback(settings, signed({ op: 1, d: 3 })).status).toBe(400);
  });

  it('refuses stale timestamps when a tolerance is configured', () => {
    const late = { ...signed({ op: 0, t: 'X', d: {} }), now: new Date(1725442341_000 + 3_600_000) };
    expect(handleCallback({ ...settings, toleranceSeconds: 600 }, late).status).toBe(401);
    expect(handleCallback(settings, late).status).toBe(200);
  });
});
