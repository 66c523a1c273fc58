import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { EchoError } from '../../src/errors/echo-error.js';

/** The Ed25519 key pair QQ derives from a bot's secret: it signs callbacks (platform) and the op-13 answer (bot). */
export type QqSigningKey = { readonly privateKey: KeyObject; readonly publicKey: KeyObject };

const seedBytes = 32;
// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): SEQUENCE { version 0, AlgorithmIdentifier 1.3.101.112, OCTET STRING { OCTET STRING seed } }.
const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The key pair of a bot secret, as the platform derives it: the secret repeated until it is at least 32 bytes,
 * its first 32 bytes the Ed25519 seed. Throws only on an empty secret (config validation refuses one).
 */
export function deriveSigningKey(secret: string): QqSigningKey {
  if (secret === '') throw new EchoError('qq-secret-empty', 'The QQ bot secret is empty: config validation should have refused it.');
  let repeated = Buffer.from(secret, 'utf8');
  while (repeated.length < seedBytes) repeated = Buffer.concat([repeated, repeated]);
  const privateKey = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, repeated.subarray(0, seedBytes)]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}
