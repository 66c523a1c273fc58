import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from './error-response.js';

/** A node:http request listener. */
export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** A request listener whose real one is built on first need; `load` builds it ahead (after the server listens). */
export type DeferredRequestHandler = {
  readonly handle: RequestListener;
  load(): Promise<RequestListener>;
};

/**
 * Lets the server listen before the code that answers is loaded (koa and its dependencies cost more start-up
 * CPU than the rest of the gateway): a request that comes first waits for `build`, its body unread until then.
 * A build that fails answers 500 and is reported to `onFailure` (a bug: the modules are part of the install).
 */
export function createDeferredRequestHandler(options: { readonly build: () => Promise<RequestListener>; readonly onFailure: (error: unknown) => void }): DeferredRequestHandler {
  let built: RequestListener | undefined;
  let building: Promise<RequestListener> | undefined;
  const load = (): Promise<RequestListener> => {
    building ??= options.build().then((listener) => {
      built = listener;
      return listener;
    });
    return building;
  };
  const handle: RequestListener = (request, response) => {
    if (built !== undefined) {
      built(request, response);
      return;
    }
    load().then(
      (listener) => listener(request, response),
      (error: unknown) => {
        options.onFailure(error);
        response.statusCode = 500;
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.end(JSON.stringify(errorBody('internal', 'The server failed to handle the request.')));
      },
    );
  };
  return { handle, load };
}
