import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSigningKey } from '../../../../channels/qq/derive-signing-key.js';
import { signCallback } from '../../../../channels/qq/sign-callback.js';
import { verifyCallback } from '../../../../channels/qq/verify-callback.js';

describe('QQ callback signing (sign.md)', () => {
  it('derives the public key of the docs example from its secret (repeated to a 32-byte seed)', () => {
    const key = deriveSigningKey('naOC0ocQE3shWLAfffVLB1rhYPG7');
    const raw = createPublicKey(key.privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
    expect([...raw]).toEqual([215, 195, 98, 254, 120, 174, 248, 31, 242, 50, 135, 180, 147, 98, 139, 93, 176, 42, 60, 79, 227, 11, 33, 94, 77, 25, 96, 155, 93, 118, 103, 58]);
  });

  it('signs the op-13 example of event-emit.md to the documented signature', () => {
    const key = deriveSigningKey('DG5g3B4j9X2KOErG');
    expect(signCallback(key, { timestamp: '1725442341', body: 'Arq0D5A61EgUu4OxUvOp' })).toBe(
      '87befc99c42c651b3aac0278e71ada338433ae26fcb24307bdc5ad38c1adc2d01bcfcadc0842edac85e85205028a1132afe09280305f13aa6909ffc2d652c706',
    );
  });

  it('uses a secret of 32 bytes or more as is (its first 32 bytes)', () => {
    const long = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const cut = deriveSigningKey(long.slice(0, 32));
    expect(signCallback(deriveSigningKey(long), { timestamp: '1', body: 'x' })).toBe(signCallback(cut, { timestamp: '1', body: 'x' }));
  });

  it('refuses an empty secret loudly (config validation must not let one through)', () => {
    expect(() => deriveSigningKey('')).toThrow(/empty/);
  });
});

describe('verifyCallback', () => {
  const key = deriveSigningKey('naOC0ocQE3shWLAfffVLB1rhYPG7');
  const body = '{"op":0,"d":{},"t":"C2C_MESSAGE_CREATE"}';
  const signature = signCallback(key, { timestamp: '1725442341', body });

  it('accepts the signature over timestamp + body', () => {
    expect(verifyCallback({ key, timestamp: '1725442341', signature, body })).toEqual({ ok: true });
    expect(verifyCallback({ key, timestamp: '1725442341', signature: signature.toUpperCase(), body })).toEqual({ ok: true });
  });

  it('refuses a changed body, a changed timestamp, another secret, and missing or malformed headers', () => {
    expect(verifyCallback({ key, timestamp: '1725442341', signature, body: body.replace('C2C', 'GROUP') })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifyCallback({ key, timestamp: '1725442342', signature, body })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifyCallback({ key: deriveSigningKey('another-secret'), timestamp: '1725442341', signature, body })).toMatchObject({ ok: false, code: 'signature-invalid' });
    expect(verifyCallback({ key, timestamp: undefined, signature, body })).toMatchObject({ ok: false, code: 'signature-missing' });
    expect(verifyCallback({ key, timestamp: '1725442341', signature: undefined, body })).toMatchObject({ ok: false, code: 'signature-missing' });
    expect(verifyCallback({ key, timestamp: '1725442341', signature: 'zz', body })).toMatchObject({ ok: false, code: 'signature-malformed' });
    // Only digits: a timestamp can never carry the start of a JSON body into the signed bytes.
    expect(verifyCallback({ key, timestamp: '{"op":0}', signature, body })).toMatchObject({ ok: false, code: 'timestamp-malformed' });
  });

  it('refuses a non-canonical signature (the top bits of its last byte set)', () => {
    const bytes = Buffer.from(signature, 'hex');
    bytes[63] = (bytes[63] ?? 0) | 0xe0;
    expect(verifyCallback({ key, timestamp: '1725442341', signature: bytes.toString('hex'), body })).toMatchObject({ ok: false, code: 'signature-malformed' });
  });

  it('refuses an old timestamp when a tolerance is set, and ignores age when none is', () => {
    const now = new Date(1725442341_000 + 10 * 60_000);
    expect(verifyCallback({ key, timestamp: '1725442341', signature, body, now, toleranceSeconds: 300 })).toMatchObject({ ok: false, code: 'timestamp-out-of-range' });
    expect(verifyCallback({ key, timestamp: '1725442341', signature, body, now })).toEqual({ ok: true });
  });
});
