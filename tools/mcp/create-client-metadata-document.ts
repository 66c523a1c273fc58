import type { OAuthClientMetadata } from '@modelcontextprotocol/client';

/** The path, next to /mcp/oauth/callback, where the gateway publishes echo-agent's OAuth client metadata document. */
export const clientMetadataDocumentPath = '/mcp/oauth/client-metadata.json';

/** A Client ID Metadata Document (SEP-991): the client's metadata, with its own URL as `client_id`. */
export type ClientMetadataDocument = OAuthClientMetadata & { readonly client_id: string };

/**
 * The metadata of echo-agent as a public OAuth client that a person authorizes (authorization code with PKCE, no
 * secret); dynamic registration sends it, and the Client ID Metadata Document publishes it.
 */
export function createAuthorizationCodeClientMetadata(input: { readonly redirectUrl: string; readonly scope?: string }): OAuthClientMetadata {
  return {
    client_name: 'echo-agent',
    redirect_uris: [input.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...(input.scope === undefined ? {} : { scope: input.scope }),
  };
}

/**
 * The document an authorization server fetches at `clientMetadataUrl` when echo-agent offers that URL as its client_id.
 * It names no scope: one document serves every MCP server, each of which asks for its own scope.
 */
export function createClientMetadataDocument(input: { readonly clientMetadataUrl: string; readonly redirectUrl: string }): ClientMetadataDocument {
  return { client_id: input.clientMetadataUrl, ...createAuthorizationCodeClientMetadata({ redirectUrl: input.redirectUrl }) };
}

/**
 * The URL offered as client_id: `configured` when given, else the document's path next to an HTTPS callback (a proxy's
 * path prefix kept). Undefined when the callback is plain HTTP: a client ID metadata document must be served over HTTPS,
 * so echo-agent then registers dynamically.
 */
export function resolveClientMetadataUrl(input: { readonly configured?: string; readonly callbackUrl: string }): string | undefined {
  if (input.configured !== undefined) return input.configured;
  const callback = new URL(input.callbackUrl);
  if (callback.protocol !== 'https:') return undefined;
  return new URL('client-metadata.json', callback).href;
}
