import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata, type OAuthDiscoveryState } from '@modelcontextprotocol/client';

/**
 * Discovery for a server of the 2025-03-26 revision, which publishes no protected resource metadata (RFC 9728) and
 * is its own authorization server: the metadata at its origin's /.well-known/oauth-authorization-server is accepted
 * when its issuer is on that same origin, even under a path (`https://host/oauth`), which that revision allowed.
 * RFC 8414 §3.3's exact issuer match guards against mix-up between authorization servers; here the document and the
 * issuer it names are the MCP server's own origin, so no other server is involved. Anything else (a server with
 * resource metadata, an issuer on another origin, no document) returns undefined and the SDK's strict discovery runs.
 */
export async function discoverLegacyAuthorizationServer(serverUrl: string): Promise<OAuthDiscoveryState | undefined> {
  try {
    await discoverOAuthProtectedResourceMetadata(serverUrl);
    return undefined;
  } catch {
    // No resource metadata: a 2025-03-26 server (or one that cannot be reached, which the strict path reports).
  }
  const origin = new URL('/', serverUrl);
  const metadata = await discoverAuthorizationServerMetadata(origin, { protocolVersion: '2025-03-26', skipIssuerValidation: true }).catch(() => undefined);
  if (metadata === undefined || !isSameOrigin(metadata.issuer, origin)) return undefined;
  return { authorizationServerUrl: origin.href, authorizationServerMetadata: metadata };
}

function isSameOrigin(issuer: string, origin: URL): boolean {
  try {
    return new URL(issuer).origin === origin.origin;
  } catch {
    return false;
  }
}
