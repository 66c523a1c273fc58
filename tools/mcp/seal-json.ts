import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A value encrypted with AES-256-GCM: nonce, authentication tag and ciphertext, each base64. */
export type SealedJson = { readonly version: 1; readonly nonce: string; readonly tag: string; readonly data: string };

/** The 32-byte AES key from the configured secret (mcp.secretKey, ECHO_SECRET_KEY): its SHA-256, so any length works. */
function keyOf(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Encrypts a JSON value with AES-256-GCM under a fresh 12-byte nonce. */
export function sealJson(secret: string, value: unknown): SealedJson {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), nonce);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { version: 1, nonce: nonce.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** Decrypts what `sealJson` wrote; a wrong key or a changed byte is a value, never a throw. */
export function openSealedJson(secret: string, sealed: SealedJson): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string } {
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(sealed.nonce, 'base64'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: 'it cannot be decrypted with the configured key (was ECHO_SECRET_KEY changed?)' };
  }
}
