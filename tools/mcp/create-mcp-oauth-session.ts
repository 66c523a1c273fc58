import { auth } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../../src/config/config-schema.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { createOAuthProvider, type EchoOAuthProvider } from './create-oauth-provider.js';
import { createOAuthVault } from './oauth-vault.js';
import { privateKeyJwtAlgorithm } from './private-key-jwt-algorithm.js';

/** Where OAuth for MCP servers gets its key, its callback and its way to a person. */
export type McpOAuthContext = {
  /** mcp.secretKey (ECHO_SECRET_KEY): without it no token is stored, and OAuth servers are refused. */
  readonly secretKey?: string;
  readonly dataDir: string;
  /**
   * A one-off look (doctor): the stored access token only. No refresh (a rotated refresh token would strand the running
   * agent), no link, nothing written.
   */
  readonly probeOnly?: boolean;
  /** The gateway's /mcp/oauth/callback as a browser reaches it. */
  readonly redirectUrl: () => string;
  /** The HTTPS URL of echo-agent's client ID metadata document, when it is published (see resolveClientMetadataUrl). */
  readonly clientMetadataUrl?: () => string | undefined;
  /** Sends the authorization link to a person who may approve (an approver, in the chat). */
  readonly onAuthorizationLink: (server: string, link: URL) => void;
};

/** Authorization links sent without a tool call working in between; past it the server is left down with the reason. */
const maxLinksInARow = 3;

/** A token is refreshed this long before it expires (or at half its life, when that is sooner). */
const refreshMarginMs = 60_000;

/** The OAuth side of one server's connection: its provider, its state for /healthz and doctor, refresh and the callback. */
export type McpOAuthSession = {
  readonly provider: EchoOAuthProvider;
  /** One line for /healthz and `npm run doctor`. */
  describe(): string;
  /** True while a link is out and the server waits for a person: reconnecting would only send another link. */
  isAwaitingPerson(): boolean;
  /** A tool call went through with the current token: the count of links in a row starts again. */
  noteWorking(): void;
  /** Arms the refresh of the access token before it expires (and again after each refresh). */
  scheduleRefresh(): void;
  /** Exchanges the code the callback brought (PKCE verifier from the vault) for tokens. */
  complete(code: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: string }>;
  stop(): void;
};

/** The message a server with `oauth` is down with when no key is configured. */
export const missingSecretKeyMessage = 'OAuth tokens are stored only encrypted: set ECHO_SECRET_KEY (mcp.secretKey) to a long random value, then restart';

/** Builds the session, or the sentence why the server cannot use OAuth (no key). */
export function createMcpOAuthSession(input: {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly context: McpOAuthContext;
  readonly logger: Logger;
}): { readonly ok: true; readonly session: McpOAuthSession } | { readonly ok: false; readonly error: string } {
  const { name, config, context, logger } = input;
  const oauth = config.oauth;
  if (oauth === undefined || config.url === undefined) return { ok: false, error: 'this server has no oauth settings' };
  if (context.secretKey === undefined || context.secretKey === '') return { ok: false, error: missingSecretKeyMessage };
  const serverUrl = config.url;
  const signing = oauth.privateKey === undefined ? undefined : privateKeyJwtAlgorithm({ privateKey: oauth.privateKey, ...(oauth.privateKeyAlgorithm === undefined ? {} : { configured: oauth.privateKeyAlgorithm }) });
  if (signing?.ok === false) return { ok: false, error: signing.error };
  const probeOnly = context.probeOnly === true;
  const vault = createOAuthVault({ dataDir: context.dataDir, server: name, secretKey: context.secretKey, readOnly: probeOnly });
  const problem = vault.problem();
  if (problem) logger.warn(problem);
  let linkSentAt: Date | undefined;
  let lastError: string | undefined;
  let refreshTimer: NodeJS.Timeout | undefined;
  let linksInARow = 0;
  const provider = createOAuthProvider({
    oauth,
    vault,
    withoutRefresh: probeOnly,
    serverUrl,
    redirectUrl: context.redirectUrl,
    ...(context.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: context.clientMetadataUrl }),
    ...(signing === undefined ? {} : { privateKeyAlgorithm: signing.algorithm }),
    onAuthorizationLink: (link) => {
      if (probeOnly) {
        lastError = 'no valid token here: the running agent asks an approver to authorize it (or refreshes its token)';
        throw new Error(lastError);
      }
      // A server that keeps refusing fresh tokens (a scope it never grants) would otherwise ask the person forever.
      if (linksInARow >= maxLinksInARow) {
        lastError = `authorization was asked ${maxLinksInARow} times in a row and the server still refuses the token; check oauth.scope, then restart`;
        throw new Error(lastError);
      }
      linksInARow += 1;
      linkSentAt = new Date();
      logger.info(`MCP server ${name} needs a person to authorize echo-agent; the link goes to an approver`);
      context.onAuthorizationLink(name, link);
    },
  });

  const session: McpOAuthSession = {
    provider,
    describe() {
      if (linkSentAt !== undefined) return `waiting for a person to authorize (link sent ${linkSentAt.toISOString()})`;
      if (lastError !== undefined) return `failed: ${lastError}`;
      if (!provider.hasTokens()) return `no token yet (${oauth.grant})`;
      const expiresAt = provider.expiresAt();
      return `authorized (${oauth.grant})${expiresAt === undefined ? '' : `, token expires ${new Date(expiresAt).toISOString()}, refreshed before`}`;
    },
    isAwaitingPerson: () => linkSentAt !== undefined,
    noteWorking() {
      linksInARow = 0;
    },
    scheduleRefresh() {
      clearTimeout(refreshTimer);
      if (probeOnly) return;
      const expiresAt = provider.expiresAt();
      if (expiresAt === undefined) return;
      const lifeLeft = expiresAt - Date.now();
      const delay = Math.max(1000, lifeLeft - Math.min(refreshMarginMs, lifeLeft / 2));
      refreshTimer = setTimeout(() => {
        void auth(provider, { serverUrl, ...(oauth.scope === undefined ? {} : { scope: oauth.scope }) })
          .then((result) => {
            if (result === 'AUTHORIZED') {
              lastError = undefined;
              logger.info(`MCP server ${name}: access token refreshed`);
              session.scheduleRefresh();
            }
          })
          .catch((error: unknown) => {
            lastError = `the token could not be refreshed: ${error instanceof Error ? error.message : String(error)}`;
            logger.warn(`MCP server ${name}: ${lastError}`);
          });
      }, delay);
      refreshTimer.unref();
    },
    async complete(code) {
      try {
        const result = await auth(provider, { serverUrl, authorizationCode: code });
        if (result !== 'AUTHORIZED') return { ok: false, error: 'the authorization server did not issue a token' };
        linkSentAt = undefined;
        lastError = undefined;
        vault.update(({ codeVerifier: _used, state: _answered, ...entry }) => entry);
        return { ok: true };
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        return { ok: false, error: lastError };
      }
    },
    stop() {
      clearTimeout(refreshTimer);
    },
  };
  return { ok: true, session };
}
