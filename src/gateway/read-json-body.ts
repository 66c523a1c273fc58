import type { Context, Middleware } from 'koa';
import { discardRefusedBody } from './discard-refused-body.js';
import type { GatewayErrorCode } from './error-response.js';

/** Largest accepted body when a route names no limit: 1 MiB. */
export const defaultBodyLimitBytes = 1024 * 1024;

/** A request body read as JSON: parsed with its raw text (what signatures cover), or why not. */
export type JsonBody =
  | { readonly ok: true; readonly body: unknown; readonly rawBody: string }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly code: GatewayErrorCode; readonly message: string; readonly rawBody?: string };

/**
 * Reads JSON bodies up to `limitBytes`; a larger one is refused from its Content-Length before it is read, or as soon
 * as it passes the limit. The rest of a refused body is dropped as it arrives (discard-refused-body.ts), so the 413
 * reaches clients that send the whole body before they read.
 */
export function createJsonBodyReader(options: { readonly limitBytes: number }): (context: Context) => Promise<JsonBody> {
  // Loaded with the first JSON body, not at start-up: @koa/bodyparser and co-body cost more start-up CPU than koa itself,
  // and a gateway without a secret (or with no caller yet) never reads a body.
  let parser: Promise<Middleware> | undefined;
  const loadParser = async (): Promise<Middleware> => {
    const { bodyParser } = await import('@koa/bodyparser');
    return bodyParser({
      enableTypes: ['json'],
      jsonLimit: options.limitBytes,
      onError: (error, context) => {
        context.state.bodyError = error;
      },
    });
  };
  const limitText = `${Math.round(options.limitBytes / 1024)} KiB`;
  return async (context) => {
    if (!context.is('application/json')) {
      return { ok: false, status: 415, code: 'unsupported-media-type', message: 'Send the body as JSON with Content-Type: application/json.' };
    }
    parser ??= loadParser();
    await (await parser)(context, async () => undefined);
    const error = context.state.bodyError as (Error & { status?: number; type?: string; body?: unknown }) | undefined;
    if (error === undefined) return { ok: true, body: context.request.body, rawBody: context.request.rawBody ?? '' };
    if (error.status === 413) {
      discardRefusedBody(context.req, context.res);
      return { ok: false, status: 413, code: 'body-too-large', message: `The body is larger than ${limitText}.` };
    }
    if (error.status === 415) return { ok: false, status: 415, code: 'unsupported-media-type', message: 'The body uses an encoding the server does not read.' };
    const rawBody = typeof error.body === 'string' ? error.body : undefined;
    return { ok: false, status: 400, code: 'json-malformed', message: 'The body is not valid JSON (an object is expected).', rawBody };
  };
}
