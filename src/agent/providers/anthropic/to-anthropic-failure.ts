import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ModelFailure } from '../../model-port.js';
import { createModelFailure } from '../create-model-failure.js';
import { describeConnectionError } from '../describe-connection-error.js';
import { failureKindForStatus } from '../failure-kind-for-status.js';
import { parseRetryAfter } from '../parse-retry-after.js';

/** Classifies whatever the Anthropic SDK threw into a failure value. */
export function toAnthropicFailure(
  error: unknown,
  context: { readonly provider: string; readonly secret: string; readonly aborted: boolean; readonly timedOut: boolean },
): ModelFailure {
  const base = { provider: context.provider, secret: context.secret };
  const detail = error instanceof Error ? error.message : String(error);
  // Order matters: our own timeout and the caller's abort both surface as SDK abort errors.
  if (context.aborted) return createModelFailure({ ...base, kind: 'aborted', message: 'the request was aborted' });
  if (context.timedOut || error instanceof APIConnectionTimeoutError) {
    return createModelFailure({ ...base, kind: 'timeout', message: `the model did not answer in time: ${detail}` });
  }
  if (error instanceof APIUserAbortError) {
    return createModelFailure({ ...base, kind: 'aborted', message: 'the request was aborted' });
  }
  if (error instanceof APIConnectionError) {
    return createModelFailure({ ...base, kind: 'network', message: `could not reach the model: ${describeConnectionError(error)}` });
  }
  if (error instanceof APIError && error.status !== undefined) {
    const kind = failureKindForStatus(error.status);
    const retryAfterSeconds = kind === 'rate-limited' ? parseRetryAfter(error.headers) : undefined;
    return createModelFailure({
      ...base,
      kind,
      message: `HTTP ${error.status}: ${error.apiMessage ?? detail}`,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
  if (error instanceof APIError) {
    return createModelFailure({ ...base, kind: 'server', message: `the model failed: ${detail}` });
  }
  // Anything else escaped from fetch or the body (e.g. the socket closed mid-response).
  return createModelFailure({ ...base, kind: 'network', message: `the connection failed: ${detail}` });
}
