import { createHash, type KeyObject, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One token request the authorization server answered. */
export type TokenGrant = { readonly grantType: string; readonly clientId: string; readonly accessToken: string };

/** A local MCP server behind OAuth with its own authorization server, on one port. */
export type OAuthMcpServer = {
  /** The MCP endpoint: `<origin>/mcp`. */
  readonly url: string;
  readonly origin: string;
  /** Every token the authorization server issued, in order. */
  readonly grants: readonly TokenGrant[];
  /** Every /authorize request (the link a person opens), with its query. */
  readonly authorizations: readonly URLSearchParams[];
  /** Clients registered dynamically. */
  readonly registeredClients: readonly string[];
  /** The bearer token of every tools/call, in order. */
  readonly toolCallTokens: readonly string[];
  close(): Promise<void>;
};

/** The pre-registered client the server knows besides those that register dynamically. */
export const preRegisteredClient = { id: 'echo-test-client', secret: 'echo-test-client-secret-value' };

/**
 * Starts the server on 127.0.0.1: protected resource metadata (RFC 9728), authorization server metadata (RFC 8414),
 * dynamic client registration, /authorize (approves at once and redirects, as a person who says yes), /token
 * (authorization_code with PKCE S256, refresh_token, client_credentials with client_secret_basic or _post), and /mcp,
 * a minimal Streamable HTTP MCP server (JSON answers) with one tool `whoami` that needs a valid bearer token.
 * Access tokens live `tokenSeconds`.
 */
export async function startOAuthMcpServer(options: {
  readonly tokenSeconds: number;
  /** Advertise client ID metadata documents (SEP-991) and take any https client_id as a public client (without fetching it). */
  readonly clientIdMetadataDocuments?: boolean;
  /** A pre-registered client that authenticates with private_key_jwt (RFC 7523): an ES256 assertion this key verifies. */
  readonly jwtClient?: { readonly id: string; readonly publicKey: KeyObject };
  /** Accepts the JWT bearer grant (RFC 7523, cross-app access) from an authenticated client when this says the assertion is good. */
  readonly acceptsJwtBearer?: (assertion: string) => boolean;
}): Promise<OAuthMcpServer> {
  const grants: TokenGrant[] = [];
  const authorizations: URLSearchParams[] = [];
  const registeredClients: string[] = [];
  const toolCallTokens: string[] = [];
  const clients = new Map<string, string | undefined>([[preRegisteredClient.id, preRegisteredClient.secret]]);
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, { clientId: string; expiresAt: number }>();
  const refreshTokens = new Map<string, string>();
  let origin = '';

  const issue = (grantType: string, clientId: string, withRefresh: boolean) => {
    const accessToken = `at-${randomBytes(12).toString('hex')}`;
    accessTokens.set(accessToken, { clientId, expiresAt: Date.now() + options.tokenSeconds * 1000 });
    grants.push({ grantType, clientId, accessToken });
    const answer: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: options.tokenSeconds };
    if (withRefresh) {
      const refreshToken = `rt-${randomBytes(12).toString('hex')}`;
      refreshTokens.set(refreshToken, clientId);
      answer.refresh_token = refreshToken;
    }
    return answer;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    const body = await readBody(request);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        ...(options.clientIdMetadataDocuments === true ? { client_id_metadata_document_supported: true } : {}),
      });
    }
    if (url.pathname === '/register' && request.method === 'POST') {
      const metadata = JSON.parse(body) as Record<string, unknown>;
      const clientId = `dyn-${randomBytes(6).toString('hex')}`;
      clients.set(clientId, undefined);
      registeredClients.push(clientId);
      return json(response, 201, { ...metadata, client_id: clientId, token_endpoint_auth_method: 'none' });
    }
    if (url.pathname === '/authorize') {
      authorizations.push(url.searchParams);
      const clientId = url.searchParams.get('client_id') ?? '';
      if (options.clientIdMetadataDocuments === true && clientId.startsWith('https://')) clients.set(clientId, undefined);
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      const challenge = url.searchParams.get('code_challenge') ?? '';
      if (!clients.has(clientId) || challenge === '' || url.searchParams.get('code_challenge_method') !== 'S256') return json(response, 400, { error: 'invalid_request' });
      const code = `code-${randomBytes(8).toString('hex')}`;
      codes.set(code, { clientId, challenge, redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(body);
      const clientId = form.has('client_assertion') ? assertedClient(form, options.jwtClient, origin) : authenticatedClient(request, form, clients);
      if (clientId === undefined) return json(response, 401, { error: 'invalid_client' });
      const grantType = form.get('grant_type') ?? '';
      if (grantType === 'client_credentials') return json(response, 200, issue(grantType, clientId, false));
      if (grantType === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        const good = options.acceptsJwtBearer?.(form.get('assertion') ?? '') === true;
        return good ? json(response, 200, issue(grantType, clientId, false)) : json(response, 400, { error: 'invalid_grant' });
      }
      if (grantType === 'authorization_code') {
        const entry = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!entry || entry.clientId !== clientId || entry.challenge !== challenge || entry.redirectUri !== form.get('redirect_uri')) return json(response, 400, { error: 'invalid_grant' });
        return json(response, 200, issue(grantType, clientId, true));
      }
      if (grantType === 'refresh_token') {
        const owner = refreshTokens.get(form.get('refresh_token') ?? '');
        if (owner !== clientId) return json(response, 400, { error: 'invalid_grant' });
        refreshTokens.delete(form.get('refresh_token') ?? '');
        return json(response, 200, issue(grantType, clientId, true));
      }
      return json(response, 400, { error: 'unsupported_grant_type' });
    }
    if (url.pathname === '/mcp') return serveMcp(request, response, body);
    return json(response, 404, { error: 'not found' });
  };

  const serveMcp = (request: IncomingMessage, response: ServerResponse, body: string) => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const known = accessTokens.get(token);
    if (!known || known.expiresAt < Date.now()) {
      response.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` }).end();
      return;
    }
    if (request.method !== 'POST') return json(response, 405, { error: 'method not allowed' });
    const message = JSON.parse(body) as { id?: number | string; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const reply = (result: unknown) => json(response, 200, { jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
      case 'initialize':
        return reply({ protocolVersion: message.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'oauth-test-server', version: '1.0.0' } });
      case 'ping':
        return reply({});
      case 'tools/list':
        return reply({ tools: [{ name: 'whoami', description: 'Says which OAuth client called.', inputSchema: { type: 'object', properties: {} } }] });
      case 'tools/call':
        toolCallTokens.push(token);
        return reply({ content: [{ type: 'text', text: `you are ${known.clientId}` }] });
      default:
        return json(response, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => json(response, 500, { error: 'server_error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    grants,
    authorizations,
    registeredClients,
    toolCallTokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The client a private_key_jwt assertion proves (RFC 7523 §3): ES256 signed by the client's key, issuer and subject its
 * id, audience this authorization server, not expired; else undefined.
 */
function assertedClient(form: URLSearchParams, client: { readonly id: string; readonly publicKey: KeyObject } | undefined, origin: string): string | undefined {
  if (client === undefined || form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') return undefined;
  const [header = '', payload = '', signature = ''] = (form.get('client_assertion') ?? '').split('.');
  const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (decode(header).alg !== 'ES256') return undefined;
  const signed = verify('sha256', Buffer.from(`${header}.${payload}`), { key: client.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  const claims = decode(payload);
  const fresh = typeof claims.exp === 'number' && claims.exp * 1000 > Date.now();
  return signed && fresh && claims.iss === client.id && claims.sub === client.id && claims.aud === origin ? client.id : undefined;
}

/** The client a token request authenticates as: HTTP Basic, a client_secret in the form, or a public client's id. */
function authenticatedClient(request: IncomingMessage, form: URLSearchParams, clients: ReadonlyMap<string, string | undefined>): string | undefined {
  const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (basic !== undefined) {
    const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':').map((part) => decodeURIComponent(part));
    return clients.has(id) && clients.get(id) === secret ? id : undefined;
  }
  const id = form.get('client_id') ?? '';
  if (!clients.has(id)) return undefined;
  const secret = clients.get(id);
  return secret === undefined || secret === form.get('client_secret') ? id : undefined;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
