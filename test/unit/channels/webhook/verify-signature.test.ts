import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignatureHeaders, signBody, signRequest, verifySignature } from '../../../../channels/webhook/verify-signature.js';

const now = new Date('2030-01-01T00:00:00Z');
const seconds = String(now.getTime() / 1000);

describe('webhook signatures', () => {
  it('signs callbacks over timestamp.body with HMAC-SHA256, as any receiver computes it', () => {
    const expected = createHmac('sha256', 'key').update(`${seconds}.{"a":1}`).digest('hex');
    expect(signBody('key', seconds, '{"a":1}')).toBe(`sha256=${expected}`);
  });

  it('signs timestamp.idempotencyKey.body for requests, the key empty when there is none', () => {
    const withKey = createHmac('sha256', 'key').update(`${seconds}.order-7.{"a":1}`).digest('hex');
    const withoutKey = createHmac('sha256', 'key').update(`${seconds}..{"a":1}`).digest('hex');
    expect(signRequest('key', { timestamp: seconds, idempotencyKey: 'order-7', rawBody: '{"a":1}' })).toBe(`sha256=${withKey}`);
    expect(signRequest('key', { timestamp: seconds, rawBody: '{"a":1}' })).toBe(`sha256=${withoutKey}`);
  });

  it('accepts the right signature and refuses any change to the body, timestamp, key or secret', () => {
    const signature = signRequest('key', { timestamp: seconds, idempotencyKey: 'k1', rawBody: 'body' });
    const input = { secret: 'key', timestamp: seconds, signature, rawBody: 'body', idempotencyKey: 'k1' };
    expect(verifySignature(input)).toMatchObject({ ok: true, scheme: 'v2', digest: signature.slice(7) });
    expect(verifySignature({ ...input, rawBody: 'body ' })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ ...input, timestamp: String(Number(seconds) + 1) })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ ...input, secret: 'other' })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ ...input, idempotencyKey: 'k2' })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ ...input, idempotencyKey: undefined })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ ...input, signature: signature.toUpperCase().replace('SHA256', 'sha256') })).toMatchObject({ ok: true, digest: signature.slice(7) });
    expect(verifySignature({ ...input, signature: 'sha256=abc' })).toMatchObject({ ok: false, code: 'signature-invalid' });
  });

  it('accepts the legacy timestamp.body signature only when the config allows it', () => {
    const signature = signBody('key', seconds, 'body');
    const input = { secret: 'key', timestamp: seconds, signature, rawBody: 'body' };
    expect(verifySignature(input)).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ ...input, acceptLegacy: true })).toMatchObject({ ok: true, scheme: 'legacy' });
  });

  it('checks the headers are present and the timestamp is within 300 s either way', () => {
    const signature = `sha256=${'a'.repeat(64)}`;
    expect(checkSignatureHeaders({ timestamp: undefined, signature, now })).toMatchObject({ ok: false, code: 'signature-missing' });
    expect(checkSignatureHeaders({ timestamp: seconds, signature: undefined, now })).toMatchObject({ ok: false, code: 'signature-missing' });
    expect(checkSignatureHeaders({ timestamp: String(Number(seconds) - 300), signature, now })).toEqual({ ok: true });
    expect(checkSignatureHeaders({ timestamp: String(Number(seconds) + 300), signature, now })).toEqual({ ok: true });
    expect(checkSignatureHeaders({ timestamp: String(Number(seconds) - 301), signature, now })).toMatchObject({ ok: false, code: 'timestamp-out-of-range' });
    expect(checkSignatureHeaders({ timestamp: String(Number(seconds) + 301), signature, now })).toMatchObject({ ok: false, code: 'timestamp-out-of-range' });
    expect(checkSignatureHeaders({ timestamp: '1.5e9', signature, now })).toMatchObject({ ok: false, code: 'timestamp-out-of-range' });
    expect(checkSignatureHeaders({ timestamp: seconds, signature: 'md5=abc', now })).toMatchObject({ ok: false, code: 'signature-invalid' });
  });
});
