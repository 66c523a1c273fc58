import { describe, expect, it } from 'vitest';
import { mcpServeSchema } from '../../../src/config/mcp-serve-schema.js';

const key = (name: string, secret = 'a-serve-key-of-at-least-24-chars') => ({ name, key: secret, user: '1', chat: { channel: 'telegram', chatId: '1' } });

describe('mcp.serve', () => {
  it('is off by default, on /mcp, with no keys and no browser origins beyond loopback', () => {
    expect(mcpServeSchema.parse(undefined)).toEqual({ enabled: false, allowedOrigins: [], path: '/mcp', waitSeconds: 45, keys: [] });
  });

  it('reads enabled from text the way environment values carry it', () => {
    expect(mcpServeSchema.parse({ enabled: 'false' }).enabled).toBe(false);
    expect(mcpServeSchema.parse({ enabled: 'true' }).enabled).toBe(true);
  });

  it('refuses short secrets, names that cannot go on a card, and a name used twice', () => {
    expect(mcpServeSchema.safeParse({ keys: [key('ci', 'short')] }).success).toBe(false);
    expect(mcpServeSchema.safeParse({ keys: [key('has space')] }).success).toBe(false);
    const twice = mcpServeSchema.safeParse({ keys: [key('ci'), key('ci', 'another-serve-key-of-24-chars!')] });
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]?.message).toContain('used twice');
    expect(mcpServeSchema.parse({ keys: [key('ci')] }).keys[0]).toMatchObject({ name: 'ci', callsPerMinute: 30 });
  });
});
