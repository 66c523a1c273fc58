import { verify } from 'node:crypto';
import type { QqSigningKey } from './derive-signing-key.js';

/** What a callback's signature is checked against: the two headers and the raw body, byte for byte. */
export type CallbackSignatureInput = {
  readonly key: QqSigningKey;
  /** `X-Signature-Timestamp`. */
  readonly timestamp: string | undefined;
  /** `X-Signature-Ed25519`: 64 bytes in hex. */
  readonly signature: string | undefined;
  readonly body: string;
  /** When set with `now`, a timestamp further than this from the clock is refused (replays of old captures). */
  readonly toleranceSeconds?: number;
  readonly now?: Date;
};

/** Why a callback was refused. */
export type CallbackSignatureFailure = {
  readonly ok: false;
  readonly code: 'signature-missing' | 'signature-malformed' | 'timestamp-malformed' | 'timestamp-out-of-range' | 'signature-invalid';
  readonly message: string;
};

const signaturePattern = /^[0-9a-fA-F]{128}$/;
// Unix seconds (the platform's), or milliseconds: digits only, so the signed bytes cannot start a JSON body.
const timestampPattern = /^\d{1,13}$/;

/** Verifies a callback's Ed25519 signature over `timestamp + body` with the key derived from the bot secret. */
export function verifyCallback(input: CallbackSignatureInput): { readonly ok: true } | CallbackSignatureFailure {
  if (input.timestamp === undefined || input.signature === undefined || input.timestamp === '' || input.signature === '') {
    return { ok: false, code: 'signature-missing', message: 'X-Signature-Timestamp and X-Signature-Ed25519 are required.' };
  }
  if (!timestampPattern.test(input.timestamp)) return { ok: false, code: 'timestamp-malformed', message: 'X-Signature-Timestamp must be digits.' };
  if (!signaturePattern.test(input.signature)) return { ok: false, code: 'signature-malformed', message: 'X-Signature-Ed25519 must be 128 hex digits.' };
  const signature = Buffer.from(input.signature, 'hex');
  // The top three bits of the last byte are zero in every canonical Ed25519 signature (the platform's own check).
  if (((signature[63] ?? 0) & 0xe0) !== 0) return { ok: false, code: 'signature-malformed', message: 'X-Signature-Ed25519 is not a canonical Ed25519 signature.' };
  if (input.toleranceSeconds !== undefined && input.now !== undefined) {
    const seconds = input.timestamp.length > 10 ? Number(input.timestamp) / 1000 : Number(input.timestamp);
    if (Math.abs(input.now.getTime() / 1000 - seconds) > input.toleranceSeconds) {
      return { ok: false, code: 'timestamp-out-of-range', message: `X-Signature-Timestamp is more than ${input.toleranceSeconds} s from the server's clock.` };
    }
  }
  const valid = verify(null, Buffer.from(`${input.timestamp}${input.body}`, 'utf8'), input.key.publicKey, signature);
  return valid ? { ok: true } : { ok: false, code: 'signature-invalid', message: 'X-Signature-Ed25519 does not match timestamp + body.' };
}
