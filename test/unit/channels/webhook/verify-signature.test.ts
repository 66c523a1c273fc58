import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignatureHeaders, signBody, verifySignature } from '../../../../channels/webhook/verify-signature.js';

const now = new Date('2030-01-01T00:00:00Z');
const seconds = String(now.getTime() / 1000);

describe('webhook signatures', () => {
  it('signs timestamp.body with HMAC-SHA256, as any client computes it', () => {
    const expected = createHmac('sha256', 'key').update(`${seconds}.{"a":1}`).digest('hex');
    expect(signBody('key', seconds, '{"a":1}')).toBe(`sha256=${expected}`);
  });

  it('accepts the right signature and refuses any change to the body, timestamp or secret', () => {
    const signature = signBody('key', seconds, 'body');
    expect(verifySignature({ secret: 'key', timestamp: seconds, signature, rawBody: 'body' })).toEqual({ ok: true });
    expect(verifySignature({ secret: 'key', timestamp: seconds, signature, rawBody: 'body ' })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ secret: 'key', timestamp: String(Number(seconds) + 1), signature, rawBody: 'body' })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ secret: 'other', timestamp: seconds, signature, rawBody: 'body' })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifySignature({ secret: 'key', timestamp: seconds, signature: signature.toUpperCase().replace('SHA256', 'sha256'), rawBody: 'body' })).toEqual({ ok: true });
    expect(verifySignature({ secret: 'key', timestamp: seconds, signature: 'sha256=abc', rawBody: 'body' })).toMatchObject({ ok: false, code: 'signature-invalid' });
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
