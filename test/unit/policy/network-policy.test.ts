import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../src/policy/classify-address.js';
import { createUrlChecker, type HostLookup } from '../../../src/policy/network-policy.js';

const fakeDns: Record<string, readonly { address: string; family: number }[]> = {
  'intranet.example.com': [{ address: '10.0.0.5', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: 'fd00::1', family: 6 },
  ],
  'public.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
  ],
};
const lookup: HostLookup = async (hostname) => {
  const addresses = fakeDns[hostname];
  if (addresses === undefined) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return addresses;
};
const check = createUrlChecker({ mode: 'public-only', lookup });

describe('createUrlChecker in public-only mode', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.8.9.10:8080/x', 'loopback'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[::1]/', 'loopback'],
    ['http://[fd12::1]/', 'private'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['http://2130706433/', 'loopback'],
  ])('refuses %s as %s', async (url, kind) => {
    const result = await check(url);
    expect(result).toEqual({ ok: false, reason: expect.stringContaining(kind) });
  });

  it('refuses a host name that resolves to a private address', async () => {
    expect(await check('https://intranet.example.com/wiki')).toEqual({
      ok: false,
      reason: 'intranet.example.com resolves to 10.0.0.5, which is a private network address, and only public internet addresses may be fetched.',
    });
  });

  it('refuses when any one of the resolved addresses is private', async () => {
    expect(await check('https://mixed.example.com/')).toMatchObject({ ok: false, reason: expect.stringContaining('fd00::1') });
  });

  it('refuses localhost without asking DNS', async () => {
    const asked: string[] = [];
    const checker = createUrlChecker({
      mode: 'public-only',
      lookup: async (hostname) => {
        asked.push(hostname);
        return [{ address: '93.184.216.34', family: 4 }];
      },
    });
    expect(await checker('http://localhost:3000/')).toMatchObject({ ok: false, reason: expect.stringContaining('localhost') });
    expect(await checker('http://LOCALHOST./')).toMatchObject({ ok: false });
    expect(await checker('http://app.localhost/')).toMatchObject({ ok: false });
    expect(asked).toEqual([]);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'javascript:alert(1)'])('refuses the scheme of %s', async (url) => {
    expect(await check(url)).toEqual({ ok: false, reason: expect.stringContaining('Only http and https') });
  });

  it('refuses text that is not a URL and hosts that do not resolve', async () => {
    expect(await check('not a url')).toMatchObject({ ok: false });
    expect(await check('https://unknown.example.com/')).toMatchObject({ ok: false, reason: expect.stringContaining('could not be resolved') });
  });

  it('allows public addresses and host names resolving only to them', async () => {
    expect(await check('https://public.example.com/page')).toEqual({ ok: true, pinnedAddress: { address: expect.any(String), family: expect.any(Number) } });
    expect(await check('http://93.184.216.34/')).toEqual({ ok: true });
    expect(await check('http://[2606:4700:4700::1111]/')).toEqual({ ok: true });
  });

  it('lets allowHosts through', async () => {
    const checker = createUrlChecker({ mode: 'public-only', allowHosts: ['127.0.0.1', 'Intranet.Example.com'], lookup });
    expect(await checker('http://127.0.0.1:8080/')).toEqual({ ok: true });
    expect(await checker('http://intranet.example.com/')).toEqual({ ok: true });
    expect(await checker('http://127.0.0.2/')).toMatchObject({ ok: false });
  });
});

describe('createUrlChecker in other modes', () => {
  it('deny refuses everything', async () => {
    const checker = createUrlChecker({ mode: 'deny', lookup });
    expect(await checker('https://public.example.com/')).toEqual({ ok: false, reason: expect.stringContaining('does not allow') });
  });

  it('allow permits any http(s) URL but still no other scheme', async () => {
    const checker = createUrlChecker({ mode: 'allow', lookup });
    expect(await checker('http://10.0.0.1/')).toEqual({ ok: true });
    expect(await checker('file:///etc/passwd')).toMatchObject({ ok: false });
  });
});

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.255.255.255', 'private'],
    ['172.31.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['100.128.0.1', 'public'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:0a00:0001', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:4860:4860::8888', 'public'],
    ['8.8.8.8', 'public'],
    ['example.com', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});
