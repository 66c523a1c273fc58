import { createPrivateKey, sign, verify, type KeyObject } from 'node:crypto';

// The emulator signs on its own, from the docs (sign.md), so a mistake in channels/qq is not mirrored here.

/** The platform's Ed25519 key for a bot secret: the secret repeated to 32 bytes is the seed. */
export function platformKey(secret: string): KeyObject {
  let seed = secret;
  while (seed.length < 32) seed = seed.repeat(2);
  return createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed.slice(0, 32))]), format: 'der', type: 'pkcs8' });
}

/** Hex signature over `timestamp + body`, as in `X-Signature-Ed25519`. */
export function platformSign(key: KeyObject, timestamp: string, body: string): string {
  return sign(null, Buffer.from(timestamp + body), key).toString('hex');
}

/** Whether `signature` (hex) signs `timestamp + body` with the bot's key. */
export function platformVerify(key: KeyObject, timestamp: string, body: string, signature: string): boolean {
  if (!/^[0-9a-f]{128}$/i.test(signature)) return false;
  return verify(null, Buffer.from(timestamp + body), key, Buffer.from(signature, 'hex'));
}
