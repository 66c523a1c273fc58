import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auth } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createOAuthProvider } from '../../../../tools/mcp/create-oauth-provider.js';
import { createOAuthVault } from '../../../../tools/mcp/oauth-vault.js';
import { type OAuthMcpServer, preRegisteredClient, startOAuthMcpServer } from '../../../fakes/oauth-mcp-server.js';

const idToken = 'the-persons-id-token';
const grantForServer = 'id-jag-for-the-mcp-server';

/** A token-exchange endpoint (RFC 8693) of an identity provider: an ID-JAG for the right ID token, client and target. */
async function startIdentityProvider(expected: { readonly audience: () => string; readonly resource: () => string }) {
  const exchanges: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const form = new URLSearchParams(body);
      exchanges.push(form);
      const good =
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:token-exchange' &&
        form.get('subject_token') === idToken &&
        form.get('requested_token_type') === 'urn:ietf:params:oauth:token-type:id-jag' &&
        form.get('client_id') === 'echo-at-the-idp' &&
        form.get('audience') === expected.audience() &&
        form.get('resource') === expected.resource();
      response.writeHead(good ? 200 : 400, { 'content-type': 'application/json' });
      response.end(JSON.stringify(good ? { access_token: grantForServer, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' } : { error: 'invalid_request' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    tokenEndpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('cross-app access (SEP-990)', () => {
  let server: OAuthMcpServer | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await server?.close();
    server = undefined;
  });

  it('exchanges the ID token at the identity provider for a grant for this server, then the grant for a token', async () => {
    server = await startOAuthMcpServer({ tokenSeconds: 3600, acceptsJwtBearer: (assertion) => assertion === grantForServer });
    const mcp = server;
    const identityProvider = await startIdentityProvider({ audience: () => mcp.origin, resource: () => mcp.url });
    closers.push(identityProvider.close);
    const dataDir = mkdtempSync(join(tmpdir(), 'echo-xaa-'));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const provider = createOAuthProvider({
      oauth: {
        grant: 'cross_app_access',
        clientId: preRegisteredClient.id,
        clientSecret: preRegisteredClient.secret,
        idpTokenEndpoint: identityProvider.tokenEndpoint,
        idpClientId: 'echo-at-the-idp',
        idToken,
      },
      vault: createOAuthVault({ dataDir, server: 'remote', secretKey: 'a test key that is long enough' }),
      redirectUrl: () => 'http://127.0.0.1:1/mcp/oauth/callback',
      onAuthorizationLink: () => {
        throw new Error('cross-app access never asks a person');
      },
    });
    expect(await auth(provider, { serverUrl: mcp.url })).toBe('AUTHORIZED');
    expect(identityProvider.exchanges).toHaveLength(1);
    expect(mcp.grants).toEqual([expect.objectContaining({ grantType: 'urn:ietf:params:oauth:grant-type:jwt-bearer', clientId: preRegisteredClient.id })]);
    expect(provider.hasTokens()).toBe(true);
  });
});
