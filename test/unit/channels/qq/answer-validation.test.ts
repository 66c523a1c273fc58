import { describe, expect, it } from 'vitest';
import { answerValidation } from '../../../../channels/qq/answer-validation.js';
import { deriveSigningKey } from '../../../../channels/qq/derive-signing-key.js';
import { handleCallback } from '../../../../channels/qq/handle-callback.js';
import { signCallback } from '../../../../channels/qq/sign-callback.js';
import { verifyCallback } from '../../../../channels/qq/verify-callback.js';

const secret = 'DG5g3B4j9X2KOErG';
const key = deriveSigningKey(secret);

describe('answerValidation (op 13)', () => {
  it('answers the documented challenge with the documented signature', () => {
    expect(answerValidation(key, { plain_token: 'Arq0D5A61EgUu4OxUvOp', event_ts: '1725442341' })).toEqual({
      ok: true,
      answer: {
        plain_token: 'Arq0D5A61EgUu4OxUvOp',
        signature: '87befc99c42c651b3aac0278e71ada338433ae26fcb24307bdc5ad38c1adc2d01bcfcadc0842edac85e85205028a1132afe09280305f13aa6909ffc2d652c706',
      },
    });
  });

  it('takes the older numeric event_ts and the token shapes QQ has sent (hex, base64url)', () => {
    expect(answerValidation(key, { plain_token: 'qgg8vlvZRS6UYooatFL8Aw', event_ts: 1654503849680 })).toMatchObject({ ok: true });
    expect(answerValidation(key, { plain_token: '38bc73e16208135fb111c0c573a44eaa', event_ts: '1145141919' })).toMatchObject({ ok: true });
  });

  it('refuses anything wider than the documented shape', () => {
    for (const d of [
      undefined,
      {},
      { plain_token: '', event_ts: '1' },
      { plain_token: 'a'.repeat(65), event_ts: '1' },
      { plain_token: 'abc def', event_ts: '1' },
      { plain_token: 'abc', event_ts: '' },
      { plain_token: 'abc', event_ts: '12a' },
      { plain_token: 'abc', event_ts: '1'.repeat(14) },
      { plain_token: 'abc', event_ts: -1 },
    ]) {
      expect(answerValidation(key, d), JSON.stringify(d)).toMatchObject({ ok: false });
    }
  });
});

describe('attacker: op 13 as a signing oracle for forged events', () => {
  const forgedEvent = JSON.stringify({ op: 0, id: 'x', t: 'C2C_MESSAGE_CREATE', d: { id: 'm1', author: { user_openid: 'VICTIM' }, content: 'run rm -rf ~', timestamp: '2025-01-01T00:00:00+08:00' } });

  it('would work if the bot signed any plain_token: its answer is a valid event signature', () => {
    // Why the shape check exists: the op-13 answer is sign(event_ts + plain_token) with the event key.
    const oracleAnswer = signCallback(key, { timestamp: '1725442341', body: forgedEvent });
    expect(verifyCallback({ key, timestamp: '1725442341', signature: oracleAnswer, body: forgedEvent })).toEqual({ ok: true });
  });

  it('gets no signature for an event-shaped plain_token', () => {
    expect(answerValidation(key, { plain_token: forgedEvent, event_ts: '1725442341' })).toMatchObject({ ok: false });
    // A timestamp that carries JSON is refused too.
    expect(answerValidation(key, { plain_token: 'abc', event_ts: '1{"op":0}' })).toMatchObject({ ok: false });
  });

  it('gets nothing from the callback route: an unsigned op 13 is refused before its shape is read', () => {
    const rawBody = JSON.stringify({ op: 13, d: { plain_token: 'Arq0D5A61EgUu4OxUvOp', event_ts: '1725442341' } });
    const outcome = handleCallback({ key, appId: '11111111' }, { headers: {}, rawBody, now: new Date() });
    expect(outcome.status).toBe(401);
    expect(outcome.body).not.toMatch(/signature"\s*:\s*"[0-9a-f]{128}/);
  });

  it('gets nothing from a signed op 13 with a forged-event plain_token either (defence in depth)', () => {
    const rawBody = JSON.stringify({ op: 13, d: { plain_token: forgedEvent, event_ts: '1725442341' } });
    const headers = { 'x-signature-timestamp': '1725442341', 'x-signature-ed25519': signCallback(key, { timestamp: '1725442341', body: rawBody }) };
    const outcome = handleCallback({ key, appId: '11111111' }, { headers, rawBody, now: new Date() });
    expect(outcome.status).toBe(400);
    expect(outcome.body).not.toMatch(/[0-9a-f]{128}/);
  });
});
