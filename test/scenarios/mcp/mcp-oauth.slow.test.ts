import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execSandboxFor } from '../../../src/app/exec-sandbox-for.js';
import { probeMcpServers } from '../../../src/app/probe-mcp-servers.js';
import { type OAuthMcpServer, preRegisteredClient, startOAuthMcpServer } from '../../fakes/oauth-mcp-server.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { gatewayOf, getPath } from '../../fakes/webhook-client.js';

type McpHealth = Record<string, { state: string; tools: number; error?: string; auth?: string }>;

const secretKey = 'a-long-random-test-key-for-mcp-oauth-tokens';

function oauthYaml(input: { readonly url: string; readonly oauth: readonly string[]; readonly mcp?: readonly string[] }): string {
  return [
    'approvals:',
    '  explain: false',
    'mcp:',
    '  retryMaxSeconds: 1',
    ...(input.mcp ?? []).map((line) => `  ${line}`),
    '  servers:',
    '    secure:',
    `      url: ${input.url}`,
    '      risk: read_only',
    '      oauth:',
    ...input.oauth.map((line) => `        ${line}`),
    'tools:',
    '  alsoAllow: ["secure__*"]',
    '',
  ].join('\n');
}

async function mcpHealth(scenario: TelegramScenario): Promise<McpHealth> {
  const answer = await getPath(gatewayOf(scenario.testApp.app).baseUrl, '/healthz');
  return (answer.body as { mcp?: McpHealth }).mcp ?? {};
}

function lastToolResult(scenario: TelegramScenario): string {
  const messages = scenario.modelRequests().at(-1)?.body?.messages ?? [];
  return String(messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '');
}

/** Asks the model for `secure__whoami` in the chat of user 1001 and returns what the tool answered. */
async function callWhoami(scenario: TelegramScenario, reply: string): Promise<string> {
  scenario.model.enqueue({ toolCalls: [{ name: 'secure__whoami', arguments: {} }] });
  scenario.model.enqueue({ text: reply });
  const client = scenario.client({ userId: 1001 });
  await client.sendMessage(client.makeMessage('who am I to the secure server?'));
  await scenario.waitForBotMessage((message) => message.text === reply, reply);
  return lastToolResult(scenario);
}

describe('MCP servers behind OAuth', () => {
  let server: OAuthMcpServer | undefined;
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    await server?.close();
    scenario = undefined;
    server = undefined;
  });

  it('client credentials: discovers the authorization server, gets a token headless, refreshes it before it expires', async () => {
    server = await startOAuthMcpServer({ tokenSeconds: 2 });
    const url = server.url;
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      yaml: oauthYaml({ url, oauth: ['grant: client_credentials', `clientId: ${preRegisteredClient.id}`, `clientSecret: ${preRegisteredClient.secret}`] }),
      environment: () => ({ ECHO_SECRET_KEY: secretKey }),
    });
    const current = scenario;
    await waitFor(async () => (await mcpHealth(current)).secure?.state === 'up', 'the secure server up');
    expect((await mcpHealth(current)).secure?.auth).toMatch(/^authorized \(client_credentials\), token expires/);
    const fetched = server;
    // The token lives 2 s: a second one is fetched before the first expires, without any 401 on the way.
    await waitFor(() => fetched.grants.length >= 2, 'a token fetched again before expiry');
    expect(new Set(fetched.grants.map((grant) => grant.grantType))).toEqual(new Set(['client_credentials']));
    expect(await callWhoami(current, 'You are the test client.')).toBe(`you are ${preRegisteredClient.id}`);
    // The call carried a token fetched after the first one (refreshes go on every second, so not necessarily the newest).
    expect(fetched.grants.findIndex((grant) => grant.accessToken === fetched.toolCallTokens.at(-1))).toBeGreaterThan(0);
  });

  it('authorization code: the link goes to the approver in Telegram, the callback on the gateway completes it, tokens are refreshed and stored encrypted', async () => {
    server = await startOAuthMcpServer({ tokenSeconds: 2 });
    const url = server.url;
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      approvers: '1001',
      yaml: oauthYaml({ url, oauth: ['grant: authorization_code'] }),
      environment: () => ({ ECHO_SECRET_KEY: secretKey }),
    });
    const current = scenario;
    const linkMessage = await current.waitForBotMessage((message) => /Open this link and approve: /.test(message.text ?? ''), 'the authorization link in the chat');
    expect(linkMessage.text).toContain('The MCP server "secure" needs your authorization');
    expect((await mcpHealth(current)).secure?.auth).toMatch(/^waiting for a person to authorize/);
    // Telegram shows the link as an HTML anchor.
    const link = (/href="([^"]+)"/.exec(linkMessage.text ?? '')?.[1] ?? '').replaceAll('&amp;', '&');
    // The person opens it: the authorization server approves and redirects the browser to echo-agent's gateway.
    const approval = await fetch(link, { redirect: 'manual' });
    const callbackUrl = new URL(approval.headers.get('location') ?? '');
    expect(callbackUrl.pathname).toBe('/mcp/oauth/callback');
    expect(server.registeredClients).toHaveLength(1);
    expect(server.authorizations[0]?.get('code_challenge_method')).toBe('S256');
    const callback = await fetch(callbackUrl);
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain('echo-agent is connected to the MCP server "secure"');
    expect((await mcpHealth(current)).secure?.state).toBe('up');

    const issued = server;
    await waitFor(() => issued.grants.some((grant) => grant.grantType === 'refresh_token'), 'the token refreshed before it expires');
    expect(await callWhoami(current, 'Done.')).toBe(`you are ${issued.registeredClients[0]}`);
    expect(issued.grants.find((grant) => grant.accessToken === issued.toolCallTokens.at(-1))?.grantType).toBe('refresh_token');

    // Stored encrypted: neither token appears in the data folder.
    const folder = join(current.testApp.dataDir, 'mcp-oauth');
    const stored = readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8'));
    expect(stored).toHaveLength(1);
    for (const grant of issued.grants) expect(stored[0]).not.toContain(grant.accessToken);
    expect(JSON.parse(stored[0] ?? '{}')).toMatchObject({ version: 1 });

    // The doctor's one-off look (probeOnly: no refresh, no link, no write) connects with the stored access token.
    const config = current.testApp.app.config;
    const probe = await probeMcpServers(config, execSandboxFor(config));
    expect(probe.servers.secure).toMatchObject({ state: 'up', auth: expect.stringMatching(/^authorized \(authorization_code\)/) });

    // A callback whose state no server waits for is refused, plainly.
    const replayed = await fetch(callbackUrl);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('no MCP server is waiting for this authorization');
  });

  it('client ID metadata document: where the authorization server supports it, the link offers the published document as client_id, nothing registers, and the gateway serves the document', async () => {
    server = await startOAuthMcpServer({ tokenSeconds: 3600, clientIdMetadataDocuments: true });
    const documentUrl = 'https://echo.example.test/mcp/oauth/client-metadata.json';
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      approvers: '1001',
      yaml: oauthYaml({ url: server.url, oauth: ['grant: authorization_code'], mcp: [`oauthClientMetadataUrl: ${documentUrl}`] }),
      environment: () => ({ ECHO_SECRET_KEY: secretKey }),
    });
    const current = scenario;
    const linkMessage = await current.waitForBotMessage((message) => /Open this link and approve: /.test(message.text ?? ''), 'the authorization link in the chat');
    const link = new URL((/href="([^"]+)"/.exec(linkMessage.text ?? '')?.[1] ?? '').replaceAll('&amp;', '&'));
    expect(link.searchParams.get('client_id')).toBe(documentUrl);
    const baseUrl = gatewayOf(current.testApp.app).baseUrl;
    const document = await getPath(baseUrl, '/mcp/oauth/client-metadata.json');
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({ client_id: documentUrl, redirect_uris: [link.searchParams.get('redirect_uri')], token_endpoint_auth_method: 'none' });

    const approval = await fetch(link, { redirect: 'manual' });
    const callback = await fetch(new URL(approval.headers.get('location') ?? ''));
    expect(callback.status).toBe(200);
    expect(server.registeredClients).toEqual([]);
    expect(await callWhoami(current, 'Done.')).toBe(`you are ${documentUrl}`);
  });

  it('publishes no client ID metadata document while the gateway is reached over plain http', async () => {
    server = await startOAuthMcpServer({ tokenSeconds: 3600, clientIdMetadataDocuments: true });
    scenario = await startTelegramScenario({
      allowFrom: '1001',
      approvers: '1001',
      yaml: oauthYaml({ url: server.url, oauth: ['grant: authorization_code'] }),
      environment: () => ({ ECHO_SECRET_KEY: secretKey }),
    });
    const current = scenario;
    const linkMessage = await current.waitForBotMessage((message) => /Open this link and approve: /.test(message.text ?? ''), 'the authorization link in the chat');
    const link = new URL((/href="([^"]+)"/.exec(linkMessage.text ?? '')?.[1] ?? '').replaceAll('&amp;', '&'));
    expect(server.registeredClients).toHaveLength(1);
    expect(link.searchParams.get('client_id')).toBe(server.registeredClients[0]);
    expect((await getPath(gatewayOf(current.testApp.app).baseUrl, '/mcp/oauth/client-metadata.json')).status).toBe(404);
  });

  it('refuses to store tokens without ECHO_SECRET_KEY, and says so', async () => {
    server = await startOAuthMcpServer({ tokenSeconds: 60 });
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml: oauthYaml({ url: server.url, oauth: ['grant: authorization_code'] }) });
    const current = scenario;
    const health = await waitFor(async () => {
      const secure = (await mcpHealth(current)).secure;
      return secure?.state === 'down' ? secure : undefined;
    }, 'the secure server down');
    expect(health.error).toContain('set ECHO_SECRET_KEY');
    expect(health.auth).toContain('refused: OAuth tokens are stored only encrypted');
    expect(server.grants).toHaveLength(0);
  });
});
