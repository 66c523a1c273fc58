import type { FormBody } from './read-form-body.js';
import type { JsonBody } from './read-json-body.js';

/** A request as a route sees it: path, lower-cased headers, the query, a lazily read JSON body, and whether the caller left. */
export type HttpRequest = {
  readonly method: string;
  readonly path: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The query string's parameters (the first value of a repeated one). */
  readonly query: Readonly<Record<string, string | undefined>>;
  /**
   * Reads the body as JSON within the route's `bodyLimitBytes`, with its raw text (what signatures cover); read only
   * when asked, so a route can refuse a request from its headers first. A body over the limit is dropped as it arrives.
   */
  readJson(): Promise<JsonBody>;
  /** Reads the body as an HTML form (`application/x-www-form-urlencoded`) within the route's `bodyLimitBytes`. */
  readForm(): Promise<FormBody>;
  /** Aborted when the caller hangs up before the answer is written. */
  readonly closed: AbortSignal;
};

/** What a route answers: a status, a JSON (or text) body, and headers to set; a `Readable` body is streamed as it is written (server-sent events). */
export type HttpResponse = { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> };

/** A route a channel serves on the gateway: `POST /v1/messages`, Telegram's webhook, QQ's callback. */
export type HttpRoute = {
  readonly method: 'GET' | 'POST';
  /** Matched literally (paths come from config), never read as a router pattern. */
  readonly path: string;
  /**
   * Also serves every path below `path` (which then ends in `/`): `/v1/approvals/` answers `/v1/approvals/<id>`; an exact
   * path wins, then the longest prefix (`/console/act/` before `/console/`).
   */
  readonly matchPrefix?: boolean;
  /** Largest body `readJson` accepts; default 1 MiB. */
  readonly bodyLimitBytes?: number;
  handle(request: HttpRequest): Promise<HttpResponse>;
};

/** How a channel registers its routes while it is wired; the gateway serves them once it starts. */
export type GatewayRoutes = {
  /** Adds a route; a second route on the same path is a bug in the build and throws `gateway-route-duplicate`. */
  mount(route: HttpRoute): void;
};
