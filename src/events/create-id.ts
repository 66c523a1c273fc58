import { randomBytes, randomUUID } from 'node:crypto';

/** A unique id for events and executions. */
export function createId(): string {
  return randomUUID();
}

/** A short unguessable id (about 60 bits, base32 lowercase) for things people type: approval ids. */
export function createShortId(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}
