/** A request as an HTTP route sees it: the parsed JSON body, the raw body text and lower-cased headers. */
export type HttpRequest = { readonly body: unknown; readonly rawBody: string; readonly headers: Readonly<Record<string, string | undefined>> };

/** What a route answers. */
export type HttpResponse = { readonly status: number; readonly body?: unknown };

/** An extra route another channel mounts on the HTTP gateway (Telegram's webhook mode). */
export type HttpRoute = {
  readonly method: 'POST';
  readonly path: string;
  handle(request: HttpRequest): Promise<HttpResponse>;
};
