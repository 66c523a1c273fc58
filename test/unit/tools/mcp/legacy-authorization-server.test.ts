import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverLegacyAuthorizationServer } from '../../../../tools/mcp/discover-legacy-authorization-server.js';

/** A server answering the well-known documents it is given (by path), 404 elsewhere. */
async function serveDocuments(documents: (origin: string) => Readonly<Record<string, unknown>>): Promise<{ server: Server; origin: string }> {
  let origin = '';
  const server = createServer((request, response) => {
    const document = documents(origin)[request.url ?? ''];
    if (document === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}

const metadataOf = (issuer: string) => ({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, response_types_supported: ['code'] });

describe('discovery of a 2025-03-26 MCP server (no resource metadata, its own authorization server)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('takes the metadata at its origin when the issuer is that origin under a path', async () => {
    const served = await serveDocuments((origin) => ({ '/.well-known/oauth-authorization-server': metadataOf(`${origin}/oauth`) }));
    server = served.server;
    const state = await discoverLegacyAuthorizationServer(`${served.origin}/mcp`);
    expect(state?.authorizationServerUrl).toBe(`${served.origin}/`);
    expect(state?.authorizationServerMetadata?.issuer).toBe(`${served.origin}/oauth`);
  });

  it('leaves an issuer on another origin to the strict check (mix-up guard), and a server with resource metadata to the normal path', async () => {
    const foreign = await serveDocuments(() => ({ '/.well-known/oauth-authorization-server': metadataOf('https://elsewhere.example') }));
    server = foreign.server;
    expect(await discoverLegacyAuthorizationServer(`${foreign.origin}/mcp`)).toBeUndefined();
    await new Promise((resolve) => foreign.server.close(resolve));
    const modern = await serveDocuments((origin) => ({
      '/.well-known/oauth-protected-resource/mcp': { resource: `${origin}/mcp`, authorization_servers: [`${origin}/oauth`] },
      '/.well-known/oauth-authorization-server': metadataOf(`${origin}/oauth`),
    }));
    server = modern.server;
    expect(await discoverLegacyAuthorizationServer(`${modern.origin}/mcp`)).toBeUndefined();
  });
});
