import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ModelFailure } from '../../model-port.js';
import { createModelFailure } from '../create-model-failure.js';
import { describeConnectionError } from '../describe-connection-error.js';
import { failureKindForStatus } from '../failure-kind-for-status.js';
import { parseRetryAfter } from '../parse-retry-after.js';

/** Classifies whatever the OpenAI SDK threw into a failure value. */
export function toOpenAiFailure(
  error: unknown,
  context: { readonly provider: string; readonly secret: string; readonly aborted: boolean; readonly timedOut: boolean },
): ModelFailure {
  const base = { provider: context.provider, secret: context.secret };
  const detail = error instanceof Error ? error.message : String(error);
  // Order matters: our own idle timeout and the caller's abort both surface as SDK abort errors.
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
      message: `HTTP ${error.status}: ${apiMessage(error) ?? detail}`,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
  if (error instanceof APIError) {
    // An error event inside a stream: the server failed mid-answer.
    return createModelFailure({ ...base, kind: 'server', message: `the model stream failed: ${detail}` });
  }
  // Anything else escaped from fetch or the stream body (e.g. the socket closed mid-stream).
  return createModelFailure({ ...base, kind: 'network', message: `the connection failed: ${detail}` });
}

// The SDK prefixes its message with the status; the body's own message reads better.
function apiMessage(error: APIError): string | undefined {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' && body.message !== '' ? body.message : undefined;
}
