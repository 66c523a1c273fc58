import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ModelFailure } from '../../../model/model-port.js';
import { classifySdkError, type SdkErrorContext } from '../classify-sdk-error.js';

const anthropicErrors = {
  apiError: APIError,
  connectionError: APIConnectionError,
  connectionTimeoutError: APIConnectionTimeoutError,
  userAbortError: APIUserAbortError,
  apiMessage: (error: Error) => (error as APIError).apiMessage ?? undefined,
};

/** Classifies whatever the Anthropic SDK threw into a failure value. */
export function toAnthropicFailure(error: unknown, context: SdkErrorContext): ModelFailure {
  return classifySdkError(error, context, anthropicErrors);
}
