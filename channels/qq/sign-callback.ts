import { sign } from 'node:crypto';
import type { QqSigningKey } from './derive-signing-key.js';

/** The hex Ed25519 signature over `timestamp + body`: what QQ puts in `X-Signature-Ed25519`, and (with `event_ts + plain_token`) the op-13 answer. */
export function signCallback(key: QqSigningKey, input: { readonly timestamp: string; readonly body: string }): string {
  return sign(null, Buffer.from(`${input.timestamp}${input.body}`, 'utf8'), key.privateKey).toString('hex');
}
