import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auth } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientMetadataDocument, resolveClientMetadataUrl } from '../../../../tools/mcp/create-client-metadata-document.js';
import { createOAuthProvider } from '../../../../tools/mcp/create-oauth-provider.js';
import { createOAuthVault } from '../../../../tools/mcp/oauth-vault.js';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../../fakes/oauth-mcp-server.js';

const documentUrl = 'https://echo.example.com/agent/mcp/oauth/client-metadata.json';
const callbackUrl = 'https://echo.example.com/agent/mcp/oauth/callback';

describe('client ID metadata documents (SEP-991)', () => {
  let server: OAuthMcpServer | undefined;
  const folders: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** Runs the SDK's auth() with echo-agent's provider for the authorization-code grant; returns the link a person gets. */
  async function authorize(input: { readonly clientIdMetadataDocuments: boolean; readonly clientId?: string }) {
    server = await startOAuthMcpServer({ tokenSeconds: 3600, clientIdMetadataDocuments: input.clientIdMetadataDocuments });
    const dataDir = mkdtempSync(join(tmpdir(), 'echo-cimd-'));
    folders.push(dataDir);
    const vault = createOAuthVault({ dataDir, server: 'remote', secretKey: 'a test key that is long enough' });
    const links: URL[] = [];
    const provider = createOAuthProvider({
      oauth: { grant: 'authorization_code', ...(input.clientId === undefined ? {} : { clientId: input.clientId }) },
      vault,
      redirectUrl: () => callbackUrl,
      clientMetadataUrl: () => documentUrl,
      onAuthorizationLink: (link) => links.push(link),
    });
    const result = await auth(provider, { serverUrl: server.url });
    return { result, link: links[0], vault, registered: [...server.registeredClients] };
  }

  it('offers the document URL as client_id where the authorization server supports it, and registers nothing', async () => {
    const { result, link, vault, registered } = await authorize({ clientIdMetadataDocuments: true });
    expect(result).toBe('REDIRECT');
    expect(link?.searchParams.get('client_id')).toBe(documentUrl);
    expect(link?.searchParams.get('redirect_uri')).toBe(callbackUrl);
    expect(registered).toEqual([]);
    expect(vault.read().clientInformation?.client_id).toBe(documentUrl);
  });

  it('registers dynamically where the authorization server does not advertise them', async () => {
    const { result, link, registered } = await authorize({ clientIdMetadataDocuments: false });
    expect(result).toBe('REDIRECT');
    expect(registered).toHaveLength(1);
    expect(link?.searchParams.get('client_id')).toBe(registered[0]);
  });

  it('keeps a pre-registered client id even where documents are supported', async () => {
    const { link, registered } = await authorize({ clientIdMetadataDocuments: true, clientId: 'echo-test-client' });
    expect(link?.searchParams.get('client_id')).toBe('echo-test-client');
    expect(registered).toEqual([]);
  });

  it('the published document names its own URL as client_id and the callback as its one redirect', () => {
    expect(createClientMetadataDocument({ clientMetadataUrl: documentUrl, redirectUrl: callbackUrl })).toEqual({
      client_id: documentUrl,
      client_name: 'echo-agent',
      redirect_uris: [callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });

  it('the document URL sits next to an https callback, a configured one wins, and a plain-http callback offers none', () => {
    expect(resolveClientMetadataUrl({ callbackUrl })).toBe(documentUrl);
    expect(resolveClientMetadataUrl({ callbackUrl: 'http://127.0.0.1:8080/mcp/oauth/callback' })).toBeUndefined();
    expect(resolveClientMetadataUrl({ configured: 'https://elsewhere.example/echo.json', callbackUrl: 'http://127.0.0.1:8080/mcp/oauth/callback' })).toBe('https://elsewhere.example/echo.json');
  });
});
