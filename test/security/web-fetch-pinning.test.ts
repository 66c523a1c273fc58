import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { UrlCheck } from '../../src/registry/tool-context.js';
import { webFetchTool } from '../../tools/web-fetch-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../fakes/fake-tool-services.js';

// Finding 10: web_fetch resolved the name once for the check and again for the fetch (DNS rebinding).
describe('web_fetch connects to the address it checked (finding 10, DNS rebinding)', () => {
  let fake: FakeToolServices | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await fake?.cleanup();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('uses the checked address, never a second resolution of the name', async () => {
    const hosts: string[] = [];
    server = createServer((request, response) => {
      hosts.push(request.headers.host ?? '');
      response.setHeader('content-type', 'text/plain');
      response.end('served from the checked address');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // `.invalid` never resolves (RFC 6761): the page can only be reached through the address the check pinned.
    const url = `http://pinned.invalid:${port}/page`;
    const checkUrl = async (candidate: string): Promise<UrlCheck> => (candidate === url ? { ok: true, pinnedAddress: { address: '127.0.0.1', family: 4 } } : { ok: false, reason: 'unexpected URL' });
    fake = await createFakeToolServices({ checkUrl });
    const outcome = await webFetchTool.execute({ url }, fake.context);
    expect(outcome).toMatchObject({ ok: true, output: expect.stringContaining('served from the checked address') });
    expect(hosts).toEqual([`pinned.invalid:${port}`]);
  });
});
