import { describe, expect, it } from 'vitest';
import { describeMcpServers } from '../../../src/app/doctor/describe-mcp-servers.js';
import { configWith } from '../../fakes/config-with.js';

const config = configWith({
  mcp: {
    servers: {
      linear: { url: 'https://mcp.example.test/mcp', oauth: { grant: 'authorization_code' } },
      plain: { url: 'https://plain.example.test/mcp' },
    },
  },
});

describe('describeMcpServers', () => {
  it("shows an OAuth server's auth state beside its connection state, and nothing of OAuth for a server without it", () => {
    const lines = describeMcpServers(config, {
      servers: {
        linear: { state: 'down', tools: 0, error: 'could not connect: waiting for a person to authorize echo-agent', auth: 'waiting for a person to authorize (link sent 2026-12-02T07:00:00.000Z)' },
        plain: { state: 'up', tools: 3 },
      },
      tools: [],
    });
    expect(lines[0]).toMatchObject({ status: 'fail', subject: 'mcp' });
    expect(lines[0]?.text).toContain('; OAuth: waiting for a person to authorize (link sent');
    expect(lines[1]).toEqual({ status: 'ok', subject: 'mcp', text: 'plain (Streamable HTTP: https://plain.example.test/mcp) is up with 3 tools, default risk write' });
  });

  it('refuses oauth on a stdio server and client_credentials without a secret, in the config', () => {
    expect(() => configWith({ mcp: { servers: { local: { command: 'node', oauth: {} } } } })).toThrow(/oauth is for servers reached by url/);
    expect(() => configWith({ mcp: { servers: { remote: { url: 'https://x.example.test/mcp', oauth: { grant: 'client_credentials', clientId: 'id' } } } } })).toThrow(
      /needs oauth.clientId and oauth.clientSecret/,
    );
  });
});
