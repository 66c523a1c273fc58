import type { ModelFailure, ModelFailureKind } from '../../model/model-port.js';

const retryableKinds: ReadonlySet<ModelFailureKind> = new Set(['rate-limited', 'server', 'network', 'timeout']);
const maxMessageLength = 500;

/** Builds a failure value: sets `retryable` from the kind, removes the secret and trims long messages. */
export function createModelFailure(input: {
  readonly kind: ModelFailureKind;
  readonly message: string;
  readonly provider: string;
  readonly retryAfterSeconds?: number;
  /** The API key; every occurrence is replaced so it never reaches logs or chats. */
  readonly secret?: string;
}): ModelFailure {
  let message = input.message;
  // Security: servers and SDKs may echo the key back (e.g. "Incorrect API key provided: sk-...").
  if (input.secret !== undefined && input.secret.length > 0) message = message.split(input.secret).join('[redacted]');
  if (message.length > maxMessageLength) message = `${message.slice(0, maxMessageLength)}…`;
  return {
    kind: input.kind,
    message,
    retryable: retryableKinds.has(input.kind),
    provider: input.provider,
    ...(input.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: input.retryAfterSeconds }),
  };
}
