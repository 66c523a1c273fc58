import type { ModelFailure } from '../../model/model-port.js';
import { createModelFailure } from './create-model-failure.js';
import { describeConnectionError } from './describe-connection-error.js';
import { failureKindForStatus } from './failure-kind-for-status.js';
import { parseRetryAfter } from './parse-retry-after.js';

// biome-ignore lint/suspicious/noExplicitAny: SDK error constructors differ in their parameters; only instanceof is used.
type ErrorClass = abstract new (...parameters: any[]) => Error;

/** The error classes an OpenAI-style SDK (openai, @anthropic-ai/sdk) throws, and how to read the body's message. */
export type SdkErrors = {
  readonly apiError: ErrorClass;
  readonly connectionError: ErrorClass;
  readonly connectionTimeoutError: ErrorClass;
  readonly userAbortError: ErrorClass;
  /** The server's own message from an API error's body, when it has one. */
  readonly apiMessage: (error: Error) => string | undefined;
};

/** How the call ended from the provider's side: our abort, our timeout, and the secret to keep out of messages. */
export type SdkErrorContext = { readonly provider: string; readonly secret: string; readonly aborted: boolean; readonly timedOut: boolean };

/** Classifies whatever an SDK threw into a failure value: aborted, timeout, network, an HTTP status kind, or server. */
export function classifySdkError(error: unknown, context: SdkErrorContext, sdk: SdkErrors): ModelFailure {
  const base = { provider: context.provider, secret: context.secret };
  const detail = error instanceof Error ? error.message : String(error);
  // Order matters: our own timeout and the caller's abort both surface as SDK abort errors.
  if (context.aborted) return createModelFailure({ ...base, kind: 'aborted', message: 'the request was aborted' });
  if (context.timedOut || error instanceof sdk.connectionTimeoutError) {
    return createModelFailure({ ...base, kind: 'timeout', message: `the model did not answer in time: ${detail}` });
  }
  if (error instanceof sdk.userAbortError) return createModelFailure({ ...base, kind: 'aborted', message: 'the request was aborted' });
  if (error instanceof sdk.connectionError) {
    return createModelFailure({ ...base, kind: 'network', message: `could not reach the model: ${describeConnectionError(error)}` });
  }
  if (error instanceof sdk.apiError) {
    const { status, headers } = error as Error & { status?: number; headers?: unknown };
    if (status !== undefined) {
      const kind = failureKindForStatus(status);
      const retryAfterSeconds = kind === 'rate-limited' ? parseRetryAfter(headers as Parameters<typeof parseRetryAfter>[0]) : undefined;
      return createModelFailure({
        ...base,
        kind,
        message: `HTTP ${status}: ${sdk.apiMessage(error) ?? detail}`,
        ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      });
    }
    // An API error without a status: an error event inside a stream, the server failed mid-answer.
    return createModelFailure({ ...base, kind: 'server', message: `the model failed mid-answer: ${detail}` });
  }
  // Anything else escaped from fetch or the body (e.g. the socket closed mid-response).
  return createModelFailure({ ...base, kind: 'network', message: `the connection failed: ${detail}` });
}
