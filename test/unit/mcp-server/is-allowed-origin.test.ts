import { describe, expect, it } from 'vitest';
import { isAllowedOrigin } from '../../../src/mcp-server/is-allowed-origin.js';

describe('isAllowedOrigin (DNS-rebinding protection of /mcp)', () => {
  it('allows a request without Origin: MCP hosts send none', () => {
    expect(isAllowedOrigin(undefined, [])).toBe(true);
  });

  it('allows loopback origins, with or without a port', () => {
    for (const origin of ['http://localhost', 'http://localhost:8787', 'http://127.0.0.1:3000', 'http://[::1]:8787', 'https://localhost']) {
      expect(isAllowedOrigin(origin, []), origin).toBe(true);
    }
  });

  it('refuses any other origin, the opaque "null" one and a malformed one', () => {
    for (const origin of ['http://evil.example.com', 'http://localhost.evil.example.com', 'http://127.0.0.1.nip.io', 'null', 'not a url']) {
      expect(isAllowedOrigin(origin, []), origin).toBe(false);
    }
  });

  it('allows exactly the configured origins: scheme, host and port all count', () => {
    const allowed = ['https://inspector.example.com', 'http://tools.example.com:8080/'];
    expect(isAllowedOrigin('https://inspector.example.com', allowed)).toBe(true);
    expect(isAllowedOrigin('http://tools.example.com:8080', allowed)).toBe(true);
    expect(isAllowedOrigin('http://inspector.example.com', allowed)).toBe(false);
    expect(isAllowedOrigin('http://tools.example.com', allowed)).toBe(false);
  });
});
