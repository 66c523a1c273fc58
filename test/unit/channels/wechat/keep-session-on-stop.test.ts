import { describe, expect, it } from 'vitest';
import { keepSessionOnStop } from '../../../../channels/wechat/index.js';

/** The wechat4u client wechaty-puppet-wechat4u drives (no types ship with it). */
type Wechat4uClient = { logout: () => Promise<string>; stop: () => void; on: (event: string, listener: () => void) => void };

async function createClient(): Promise<Wechat4uClient> {
  // A name in a variable: the package ships no types, and only its run-time behaviour matters here.
  const packageName = 'wechat4u';
  const loaded = (await import(packageName)) as { default: new () => Wechat4uClient };
  return new loaded.default();
}

describe('keepSessionOnStop (wechat4u)', () => {
  it('without it, stopping the client logs out of WeChat and fires the handler that wipes the saved session', async () => {
    const client = await createClient();
    let logoutRequests = 0;
    let wipes = 0;
    client.logout = async () => {
      logoutRequests += 1;
      return 'logged out';
    };
    client.on('logout', () => {
      wipes += 1;
    });
    client.stop();
    expect({ logoutRequests, wipes }).toEqual({ logoutRequests: 1, wipes: 1 });
  });

  it('with it, a stop neither logs out nor wipes the session', async () => {
    const client = await createClient();
    let wipes = 0;
    client.on('logout', () => {
      wipes += 1;
    });
    keepSessionOnStop({ wechat4u: client });
    await expect(client.logout()).resolves.toBe('kept the session for the next start');
    client.stop();
    expect(wipes).toBe(0);
  });

  it('leaves other puppets alone', () => {
    const other = { name: 'mock', logout: () => 'untouched' };
    keepSessionOnStop(other);
    keepSessionOnStop(undefined);
    expect(other.logout()).toBe('untouched');
  });
});
