import { randomBytes } from 'node:crypto';
import { createPrivateKeyJwtAuth, type OAuthClientMetadata, requestJwtAuthorizationGrant, type OAuthClientProvider, type StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { McpOAuthConfig } from '../../src/config/config-schema.js';
import { createAuthorizationCodeClientMetadata } from './create-client-metadata-document.js';
import { discoverLegacyAuthorizationServer } from './discover-legacy-authorization-server.js';
import type { OAuthVault } from './oauth-vault.js';
import type { PrivateKeyJwtAlgorithm } from './private-key-jwt-algorithm.js';

/** The JWT bearer authorization grant (RFC 7523 §2.1), what cross-app access presents. */
const jwtBearerGrantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** What a server's OAuth provider is built from. */
export type OAuthProviderOptions = {
  readonly oauth: McpOAuthConfig;
  readonly vault: OAuthVault;
  /** The gateway's /mcp/oauth/callback, for the authorization-code grant (read when needed: the port may be known late). */
  readonly redirectUrl: () => string;
  /**
   * The HTTPS URL of echo-agent's client ID metadata document (SEP-991), offered as client_id to an authorization server
   * that advertises `client_id_metadata_document_supported`; undefined (or a pre-registered client) registers dynamically.
   */
  readonly clientMetadataUrl?: () => string | undefined;
  /** With oauth.privateKey: the algorithm its JWT client assertions are signed with (see privateKeyJwtAlgorithm). */
  readonly privateKeyAlgorithm?: PrivateKeyJwtAlgorithm;
  /** Told the authorization link a person must open (the SDK built it: PKCE challenge, state, resource). */
  readonly onAuthorizationLink: (link: URL) => void;
  readonly now?: () => number;
  /** Hide the refresh token from the SDK, so it never refreshes (a one-off probe). */
  readonly withoutRefresh?: boolean;
  /** The MCP server's URL: a 2025-03-26 server (no resource metadata) is discovered at its own origin (see discoverLegacyAuthorizationServer). */
  readonly serverUrl?: string;
};

/** The SDK's OAuthClientProvider over the encrypted vault, plus what echo-agent reads back. */
export type EchoOAuthProvider = OAuthClientProvider & {
  /** When the stored access token expires (ms since the epoch), if it said. */
  expiresAt(): number | undefined;
  hasTokens(): boolean;
  /** The state of the authorization link out now, if any. */
  pendingState(): string | undefined;
};

/**
 * One MCP server's OAuth client, for the SDK's `auth()` and transports: a pre-registered client (clientId with a
 * clientSecret, or a privateKey for private_key_jwt), a client ID metadata document URL, or one it registers dynamically
 * (saved encrypted), the client_credentials grant for headless deployments, cross-app access (SEP-990), or the
 * authorization-code grant with PKCE where the link goes to a person and the redirect lands on the gateway.
 */
export function createOAuthProvider(options: OAuthProviderOptions): EchoOAuthProvider {
  const { oauth, vault } = options;
  const now = options.now ?? Date.now;
  // Only the authorization-code grant involves a person; the others get their token with no redirect.
  const headless = oauth.grant !== 'authorization_code';
  const metadata = (): OAuthClientMetadata => {
    if (headless) {
      const grantType = oauth.grant === 'cross_app_access' ? jwtBearerGrantType : 'client_credentials';
      return { client_name: 'echo-agent', redirect_uris: [], grant_types: [grantType], response_types: [], ...(oauth.scope === undefined ? {} : { scope: oauth.scope }) };
    }
    const { token_endpoint_auth_method: publicClient, ...rest } = createAuthorizationCodeClientMetadata({ redirectUrl: options.redirectUrl(), ...(oauth.scope === undefined ? {} : { scope: oauth.scope }) });
    return oauth.clientSecret === undefined && oauth.clientId === undefined ? { ...rest, token_endpoint_auth_method: publicClient } : rest;
  };
  const preRegistered: StoredOAuthClientInformation | undefined =
    oauth.clientId === undefined ? undefined : { client_id: oauth.clientId, ...(oauth.clientSecret === undefined ? {} : { client_secret: oauth.clientSecret }) };

  // The 2025-03-26 discovery is tried once per process, before the SDK's first discovery (whose result is then stored).
  let legacyChecked = false;
  const provider: EchoOAuthProvider = {
    get redirectUrl() {
      return headless ? undefined : options.redirectUrl();
    },
    get clientMetadata() {
      return metadata();
    },
    // A getter: the URL may follow the callback's, known once the gateway listens. The SDK uses it only where the
    // authorization server advertises client ID metadata documents, and registers dynamically elsewhere.
    get clientMetadataUrl() {
      return preRegistered === undefined && !headless ? options.clientMetadataUrl?.() : undefined;
    },
    state() {
      const state = randomBytes(16).toString('base64url');
      vault.update((entry) => ({ ...entry, state }));
      return state;
    },
    clientInformation: () => preRegistered ?? vault.read().clientInformation,
    tokens() {
      const tokens = vault.read().tokens;
      if (tokens === undefined || options.withoutRefresh !== true) return tokens;
      const { refresh_token: _hidden, ...rest } = tokens;
      return rest;
    },
    saveTokens(tokens) {
      const expiresAt = typeof tokens.expires_in === 'number' ? now() + tokens.expires_in * 1000 : undefined;
      // A refresh answer may leave out the refresh token: the one we had stays valid (RFC 6749 §6).
      vault.update(({ expiresAt: _previous, ...entry }) => ({
        ...entry,
        tokens: { ...tokens, ...(tokens.refresh_token === undefined && entry.tokens?.refresh_token !== undefined ? { refresh_token: entry.tokens.refresh_token } : {}) },
        ...(expiresAt === undefined ? {} : { expiresAt }),
      }));
    },
    redirectToAuthorization(link) {
      options.onAuthorizationLink(link);
    },
    saveCodeVerifier(codeVerifier) {
      vault.update((entry) => ({ ...entry, codeVerifier }));
    },
    codeVerifier() {
      const verifier = vault.read().codeVerifier;
      if (verifier === undefined) throw new Error('no PKCE code verifier is stored: the authorization link was not sent by this agent');
      return verifier;
    },
    invalidateCredentials(scope) {
      if (scope === 'all' || scope === 'discovery') legacyChecked = false;
      vault.update((entry) => {
        switch (scope) {
          case 'all':
            return {};
          case 'client':
            return { ...entry, clientInformation: undefined };
          case 'tokens':
            return { ...entry, tokens: undefined, expiresAt: undefined };
          case 'verifier':
            return { ...entry, codeVerifier: undefined };
          case 'discovery':
            return { ...entry, discoveryState: undefined };
          default: {
            const unexpected: never = scope;
            throw new Error(`unknown credential scope ${String(unexpected)}`);
          }
        }
      });
    },
    saveDiscoveryState(discoveryState) {
      vault.update((entry) => ({ ...entry, discoveryState }));
    },
    async discoveryState() {
      const stored = vault.read().discoveryState;
      if (stored !== undefined || options.serverUrl === undefined || legacyChecked) return stored;
      legacyChecked = true;
      const legacy = await discoverLegacyAuthorizationServer(options.serverUrl);
      if (legacy !== undefined) vault.update((entry) => ({ ...entry, discoveryState: legacy }));
      return legacy;
    },
    expiresAt: () => vault.read().expiresAt,
    hasTokens: () => vault.read().tokens !== undefined,
    pendingState: () => vault.read().state,
  };
  if (preRegistered === undefined) {
    provider.saveClientInformation = (clientInformation) => vault.update((entry) => ({ ...entry, clientInformation }));
  }
  if (oauth.privateKey !== undefined && oauth.clientId !== undefined && options.privateKeyAlgorithm !== undefined) {
    // private_key_jwt (RFC 7523 §2.2): every token request carries a fresh assertion signed with the key, issuer and
    // subject the client id, audience the authorization server's issuer; no secret is sent.
    provider.addClientAuthentication = createPrivateKeyJwtAuth({ issuer: oauth.clientId, subject: oauth.clientId, privateKey: oauth.privateKey, alg: options.privateKeyAlgorithm });
  }
  if (oauth.grant === 'client_credentials') {
    provider.prepareTokenRequest = (scope) => new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  }
  if (oauth.grant === 'cross_app_access') {
    // SEP-990: auth() tells the MCP server's authorization server and resource after discovery; each token request
    // first exchanges the person's ID token at the identity provider (RFC 8693) for an ID-JAG for that pair, then
    // presents it as a JWT bearer grant (RFC 7523), the client authenticated with its secret.
    let authorizationServerUrl: string | undefined;
    let resourceUrl: string | undefined;
    provider.saveAuthorizationServerUrl = (url) => {
      authorizationServerUrl = url;
    };
    provider.saveResourceUrl = (url) => {
      resourceUrl = url;
    };
    provider.prepareTokenRequest = async (scope) => {
      const { idpTokenEndpoint, idpClientId, idToken } = oauth;
      if (authorizationServerUrl === undefined || resourceUrl === undefined) throw new Error('cross-app access needs the MCP server\'s protected resource metadata (RFC 9728), which it did not give');
      if (idpTokenEndpoint === undefined || idpClientId === undefined || idToken === undefined) throw new Error('cross_app_access needs oauth.idpTokenEndpoint, oauth.idpClientId and oauth.idToken');
      const grant = await requestJwtAuthorizationGrant({
        tokenEndpoint: idpTokenEndpoint,
        audience: authorizationServerUrl,
        resource: resourceUrl,
        idToken,
        clientId: idpClientId,
        ...(oauth.idpClientSecret === undefined ? {} : { clientSecret: oauth.idpClientSecret }),
        ...(scope ? { scope } : {}),
      });
      return new URLSearchParams({ grant_type: jwtBearerGrantType, assertion: grant.jwtAuthGrant, ...(scope ? { scope } : {}) });
    };
  }
  return provider;
}
