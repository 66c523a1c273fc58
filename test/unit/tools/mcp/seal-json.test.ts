import { describe, expect, it } from 'vitest';
import { openSealedJson, sealJson } from '../../../../tools/mcp/seal-json.js';

describe('sealJson / openSealedJson (AES-256-GCM)', () => {
  const tokens = { access_token: 'at-secret-value', refresh_token: 'rt-secret-value' };

  it('round-trips a value, and the sealed text shows none of it', () => {
    const sealed = sealJson('key one', tokens);
    expect(JSON.stringify(sealed)).not.toContain('secret-value');
    expect(openSealedJson('key one', sealed)).toEqual({ ok: true, value: tokens });
  });

  it('uses a fresh nonce each time', () => {
    expect(sealJson('key one', tokens).nonce).not.toBe(sealJson('key one', tokens).nonce);
  });

  it('refuses a wrong key and a changed byte as values, never a throw', () => {
    const sealed = sealJson('key one', tokens);
    expect(openSealedJson('key two', sealed)).toMatchObject({ ok: false, error: expect.stringContaining('ECHO_SECRET_KEY') });
    const data = Buffer.from(sealed.data, 'base64');
    data[0] = (data[0] ?? 0) ^ 1;
    expect(openSealedJson('key one', { ...sealed, data: data.toString('base64') }).ok).toBe(false);
  });
});
