import type { McpServeConfig } from '../config/mcp-serve-schema.js';
import { errorBody } from '../gateway/error-response.js';
import type { HttpRequest, HttpResponse, HttpRoute } from '../gateway/http-route.js';
import type { Logger } from '../logging/create-logger.js';
import type { CallerRequests } from './caller-requests.js';
import { findServeKey } from './find-serve-key.js';
import { isAllowedOrigin } from './is-allowed-origin.js';
import { registerServeTools } from './register-serve-tools.js';
import { callerOf } from './serve-caller.js';

/** What the MCP endpoint is built from. */
export type McpServeRouteOptions = {
  readonly serve: McpServeConfig;
  readonly requests: CallerRequests;
  readonly logger: Logger;
  /** The version the server reports in `initialize`. */
  readonly version: string;
};

/** Response headers passed through from the SDK's answer (content type, MCP's own). */
const passedHeaders = /^(content-type|mcp-[a-z-]+|www-authenticate)$/;

/**
 * `POST <mcp.serve.path>` on the gateway: echo-agent's MCP server over Streamable HTTP, stateless (a server and a
 * transport per request, JSON answers, no SSE). The headers are checked before the body is read or any MCP
 * processing: a browser Origin that is neither loopback nor in `allowedOrigins` is 403 (DNS rebinding), a missing or
 * wrong key is 401. GET (the optional SSE stream) is 405, which clients accept.
 */
export function createMcpServeRoute(options: McpServeRouteOptions): HttpRoute {
  // The SDK loads with the first authorised request, not at start-up.
  let sdk: Promise<typeof import('@modelcontextprotocol/server')> | undefined;
  return {
    method: 'POST',
    path: options.serve.path,
    bodyLimitBytes: 256 * 1024,
    async handle(request: HttpRequest): Promise<HttpResponse> {
      if (!isAllowedOrigin(request.headers.origin, options.serve.allowedOrigins)) {
        return { status: 403, body: errorBody('origin-not-allowed', 'This Origin may not call the MCP endpoint; add it to mcp.serve.allowedOrigins if it is yours.') };
      }
      const key = findServeKey(request.headers.authorization, options.serve.keys);
      if (!key) {
        return { status: 401, body: errorBody('unauthorized', 'Send Authorization: Bearer <key> with a key from mcp.serve.keys.'), headers: { 'WWW-Authenticate': 'Bearer realm="echo-agent"' } };
      }
      const body = await request.readJson();
      if (!body.ok) return { status: body.status, body: errorBody(body.code, body.message) };
      sdk ??= import('@modelcontextprotocol/server');
      const { McpServer, WebStandardStreamableHTTPServerTransport } = await sdk;
      const server = new McpServer({ name: 'echo-agent', version: options.version }, { capabilities: { tools: {} } });
      registerServeTools(server, { caller: callerOf(key), requests: options.requests, maxWaitSeconds: options.serve.waitSeconds, closed: request.closed });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      try {
        await server.connect(transport);
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, value);
        const answer = await transport.handleRequest(new Request(`http://gateway${options.serve.path}`, { method: 'POST', headers, body: body.rawBody }), { parsedBody: body.body });
        const text = await answer.text();
        const passed: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (passedHeaders.test(name)) passed[name] = value;
        });
        return { status: answer.status, body: text, headers: passed };
      } finally {
        await server.close().catch((error: unknown) => options.logger.debug({ err: error }, 'MCP request server did not close cleanly'));
      }
    },
  };
}
