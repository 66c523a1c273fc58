import { clientMetadataDocumentPath, type McpToolSource } from '../../tools/mcp/index.js';
import type { ApprovalSurface } from '../channel/channel-adapter.js';
import type { Config } from '../config/config-schema.js';
import type { Outbox } from '../events/outbox.js';
import type { Target } from '../events/target.js';
import type { GatewayRoutes } from '../gateway/http-route.js';
import type { Logger } from '../logging/create-logger.js';

/** The gateway path the authorization server sends the person back to. */
export const mcpOAuthCallbackPath = '/mcp/oauth/callback';

/** True when some MCP server authorizes through a person (the authorization-code grant): it needs the callback route. */
export function needsMcpOAuthCallback(config: Config): boolean {
  return Object.values(config.mcp.servers).some((server) => server.oauth !== undefined && server.oauth.grant === 'authorization_code');
}

/**
 * OAuth for MCP servers in the app: each authorization link goes to the approvers in the chat (each approver's private
 * chat, see linkTargets), GET /mcp/oauth/callback on the gateway hands the code back to the server whose link carried
 * the state, which then connects, and GET /mcp/oauth/client-metadata.json publishes echo-agent's client ID metadata
 * document (404 while no HTTPS URL for it is known).
 */
export function wireMcpOAuth(input: {
  readonly config: Config;
  readonly logger: Logger;
  readonly mcp: McpToolSource | undefined;
  readonly gateway: GatewayRoutes | undefined;
  readonly outbox: Outbox;
  readonly surfaces: () => ReadonlyMap<string, ApprovalSurface>;
}): void {
  const { mcp, logger } = input;
  if (!mcp || !Object.values(input.config.mcp.servers).some((server) => server.oauth !== undefined)) return;
  mcp.onAuthorizationLink((server, link) => {
    const targets = linkTargets(input.surfaces());
    const text = `The MCP server "${server}" needs your authorization before echo-agent can use its tools. Open this link and approve: ${link.href}`;
    if (targets.length === 0) logger.warn({ mcpServer: server }, `no approver can be reached in a chat; authorize echo-agent for the MCP server ${server} at ${link.href}`);
    for (const target of targets) {
      void input.outbox.send({ type: 'reply', target, text, kind: 'message' }).catch((error: unknown) => logger.warn({ err: error, mcpServer: server }, 'the authorization link could not be sent'));
    }
  });
  input.gateway?.mount({
    method: 'GET',
    path: clientMetadataDocumentPath,
    async handle() {
      const document = mcp.clientMetadataDocument();
      if (document === undefined) return page(404, 'echo-agent publishes no client ID metadata document here: set mcp.oauthClientMetadataUrl (an https URL) or an https mcp.oauthCallbackUrl.');
      // Public by design (it names no secret); authorization servers may cache it.
      return { status: 200, body: document, headers: { 'cache-control': 'public, max-age=300' } };
    },
  });
  input.gateway?.mount({
    method: 'GET',
    path: mcpOAuthCallbackPath,
    async handle(request) {
      const { code, state, error } = request.query;
      if (error !== undefined) return page(400, `The authorization was not given (${error}${request.query.error_description ? `: ${request.query.error_description}` : ''}).`);
      if (code === undefined || state === undefined) return page(400, 'This page expects the authorization server to send a code and a state.');
      const completed = await mcp.completeAuthorization({ state, code });
      if (!completed.ok) return page(400, `echo-agent could not finish the authorization: ${completed.error}`);
      logger.info({ mcpServer: completed.server }, `MCP server ${completed.server} authorized through the callback`);
      return page(200, `echo-agent is connected to the MCP server "${completed.server}". You can close this page.`);
    },
  });
}

/**
 * Each approver's private chat on the channels that reach people by id; where none does, each approver's id taken as
 * the chat (a private chat is named after its person there, and a one-person surface's approver is its one chat).
 */
function linkTargets(surfaces: ReadonlyMap<string, ApprovalSurface>): Target[] {
  const byUserId = [...surfaces].filter(([, surface]) => surface.reachesApproversByUserId);
  const chosen = byUserId.length > 0 ? byUserId : [...surfaces];
  return chosen.flatMap(([channel, surface]) => surface.approvers.map((chatId) => ({ channel, chatId })));
}

function page(status: number, sentence: string): { readonly status: number; readonly body: string; readonly headers: Readonly<Record<string, string>> } {
  return { status, body: `${sentence}\n`, headers: { 'content-type': 'text/plain; charset=utf-8' } };
}
