import type { ModelFailureKind } from '../../model/model-port.js';

/** Classifies an HTTP error status: 429 rate-limited, 408 timeout, 5xx server, 401/403 auth, other 4xx bad-request. */
export function failureKindForStatus(status: number): ModelFailureKind {
  if (status === 429) return 'rate-limited';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 400) return 'bad-request';
  // A non-error status reported as an error means a response we could not read.
  return 'server';
}
