import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ModelFailure } from '../../../model/model-port.js';
import { classifySdkError, type SdkErrorContext } from '../classify-sdk-error.js';

const openAiErrors = {
  apiError: APIError,
  connectionError: APIConnectionError,
  connectionTimeoutError: APIConnectionTimeoutError,
  userAbortError: APIUserAbortError,
  // The SDK prefixes its message with the status; the body's own message reads better.
  apiMessage: (error: Error) => {
    const body = (error as APIError).error as { message?: unknown } | undefined;
    return typeof body?.message === 'string' && body.message !== '' ? body.message : undefined;
  },
};

/** Classifies whatever the OpenAI SDK threw into a failure value. */
export function toOpenAiFailure(error: unknown, context: SdkErrorContext): ModelFailure {
  return classifySdkError(error, context, openAiErrors);
}
