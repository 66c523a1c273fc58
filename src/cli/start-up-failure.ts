import { EchoError } from '../errors/echo-error.js';

/**
 * Turns an EchoError thrown while the app is built (two channels with one name, a channel reporting another name)
 * into the failure `npm start` and `npm run chat` print as one sentence with its code; anything else is rethrown.
 */
export function startUpFailure(error: unknown): { readonly ok: false; readonly error: string } {
  if (error instanceof EchoError) return { ok: false, error: `${error.message} [${error.code}]` };
  throw error;
}
