import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auth } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createOAuthProvider } from '../../../../tools/mcp/create-oauth-provider.js';
import { createOAuthVault } from '../../../../tools/mcp/oauth-vault.js';
import { privateKeyJwtAlgorithm } from '../../../../tools/mcp/private-key-jwt-algorithm.js';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../../fakes/oauth-mcp-server.js';

const pem = (key: { export(options: { type: 'pkcs8'; format: 'pem' }): string | Buffer }) => String(key.export({ type: 'pkcs8', format: 'pem' }));

describe('private_key_jwt client authentication (RFC 7523)', () => {
  let server: OAuthMcpServer | undefined;
  const folders: string[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  async function clientCredentials(privateKey: string) {
    const dataDir = mkdtempSync(join(tmpdir(), 'echo-jwt-'));
    folders.push(dataDir);
    const signing = privateKeyJwtAlgorithm({ privateKey });
    if (!signing.ok) throw new Error(signing.error);
    const provider = createOAuthProvider({
      oauth: { grant: 'client_credentials', clientId: 'echo-jwt-client', privateKey },
      vault: createOAuthVault({ dataDir, server: 'remote', secretKey: 'a test key that is long enough' }),
      redirectUrl: () => 'http://127.0.0.1:1/mcp/oauth/callback',
      privateKeyAlgorithm: signing.algorithm,
      onAuthorizationLink: () => undefined,
    });
    const result = await auth(provider, { serverUrl: server?.url ?? '' }).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    return { result, provider };
  }

  it('gets a client_credentials token with an assertion signed by the registered key, and no secret', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    server = await startOAuthMcpServer({ tokenSeconds: 3600, jwtClient: { id: 'echo-jwt-client', publicKey } });
    const { result, provider } = await clientCredentials(pem(privateKey));
    expect(result).toBe('AUTHORIZED');
    expect(server.grants).toEqual([expect.objectContaining({ grantType: 'client_credentials', clientId: 'echo-jwt-client' })]);
    expect(provider.hasTokens()).toBe(true);
  });

  it('is refused when the assertion is signed by another key', async () => {
    const registered = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    server = await startOAuthMcpServer({ tokenSeconds: 3600, jwtClient: { id: 'echo-jwt-client', publicKey: registered.publicKey } });
    const { result } = await clientCredentials(pem(other.privateKey));
    expect(result).not.toBe('AUTHORIZED');
    expect(server.grants).toEqual([]);
  });

  it('takes the algorithm from the key, or the configured one, and says when the key is unreadable', () => {
    expect(privateKeyJwtAlgorithm({ privateKey: pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey) })).toEqual({ ok: true, algorithm: 'ES256' });
    expect(privateKeyJwtAlgorithm({ privateKey: pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey) })).toEqual({ ok: true, algorithm: 'ES384' });
    expect(privateKeyJwtAlgorithm({ privateKey: pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey) })).toEqual({ ok: true, algorithm: 'RS256' });
    expect(privateKeyJwtAlgorithm({ privateKey: pem(generateKeyPairSync('ed25519').privateKey) })).toEqual({ ok: true, algorithm: 'EdDSA' });
    expect(privateKeyJwtAlgorithm({ privateKey: pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey), configured: 'PS256' })).toEqual({ ok: true, algorithm: 'PS256' });
    const unreadable = privateKeyJwtAlgorithm({ privateKey: 'not a key' });
    expect(unreadable.ok).toBe(false);
    expect(unreadable.ok ? '' : unreadable.error).toMatch(/oauth.privateKey is not a PEM private key/);
  });
});
