import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUrlChecker } from '../../../src/policy/network-policy.js';
import { createWebFetchTool, htmlToText, webFetchTool } from '../../../tools/web-fetch-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

const page = `<!doctype html><html><head><title>Tide &amp; times</title><style>body { color: red }</style>
<script>window.secret = "do not show";</script></head>
<body><h1>High tide</h1><p>At 06:12 &mdash; &lt;approx&gt; &#8364;5 &#x41;</p><!-- hidden comment --><ul><li>Low: 12:30</li></ul></body></html>`;

describe('web_fetch tool', () => {
  let server: Server;
  let base: string;
  let fake: FakeToolServices | undefined;
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(request.url ?? '');
      if (request.url === '/page') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      } else if (request.url === '/hop') {
        response.writeHead(302, { location: '/page' }).end();
      } else if (request.url === '/to-private') {
        response.writeHead(302, { location: 'http://10.0.0.5/admin' }).end();
      } else if (request.url === '/to-metadata') {
        response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (request.url === '/loop') {
        response.writeHead(302, { location: '/loop' }).end();
      } else if (request.url === '/image') {
        response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      } else if (request.url === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('z'.repeat(50_000));
      } else if (request.url === '/hang') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
      } else {
        response.writeHead(404).end('missing');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(async () => fake?.cleanup());

  const localChecker = createUrlChecker({ mode: 'public-only', allowHosts: ['127.0.0.1'] });

  it('fetches a page and returns readable text without tags, scripts or styles', async () => {
    fake = await createFakeToolServices({ checkUrl: localChecker });
    const outcome = await webFetchTool.execute(webFetchTool.input.parse({ url: `${base}/page` }), fake.context);
    expect(outcome.ok).toBe(true);
    const output = outcome.ok ? outcome.output : '';
    expect(output).toContain('Title: Tide & times');
    expect(output).toContain('High tide');
    expect(output).toContain('At 06:12 &mdash; <approx> €5 A');
    expect(output).toContain('Low: 12:30');
    expect(output).not.toMatch(/<\/?(html|head|title|body|h1|p|ul|li|script|style)\b/);
    expect(output).not.toContain('do not show');
    expect(output).not.toContain('color: red');
    expect(output).not.toContain('hidden comment');
  });

  it('follows a redirect, checking the new address too', async () => {
    const checked: string[] = [];
    fake = await createFakeToolServices({
      checkUrl: async (url) => {
        checked.push(url);
        return localChecker(url);
      },
    });
    const outcome = await webFetchTool.execute({ url: `${base}/hop` }, fake.context);
    expect(outcome).toMatchObject({ ok: true, output: expect.stringContaining('High tide') });
    expect(checked).toEqual([`${base}/hop`, `${base}/page`]);
  });

  it.each(['/to-private', '/to-metadata'])('refuses a redirect (%s) to a private address', async (route) => {
    fake = await createFakeToolServices({ checkUrl: localChecker });
    const outcome = await webFetchTool.execute({ url: `${base}${route}` }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringMatching(/^Refused to fetch http:\/\/(10\.0\.0\.5|169\.254\.169\.254)\//) });
  });

  it('refuses the first URL when the policy says no, without sending a request', async () => {
    fake = await createFakeToolServices({ checkUrl: createUrlChecker({ mode: 'public-only' }) });
    const before = requested.length;
    const outcome = await webFetchTool.execute({ url: `${base}/page` }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('loopback') });
    expect(requested.length).toBe(before);
  });

  it('gives up after 5 redirects', async () => {
    fake = await createFakeToolServices({ checkUrl: localChecker });
    expect(await webFetchTool.execute({ url: `${base}/loop` }, fake.context)).toMatchObject({ ok: false, error: expect.stringContaining('more than 5 times') });
  });

  it('refuses content that is not text', async () => {
    fake = await createFakeToolServices({ checkUrl: localChecker });
    expect(await webFetchTool.execute({ url: `${base}/image` }, fake.context)).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('image/png') });
  });

  it('reports HTTP errors', async () => {
    fake = await createFakeToolServices({ checkUrl: localChecker });
    expect(await webFetchTool.execute({ url: `${base}/nowhere` }, fake.context)).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('HTTP 404') });
  });

  it('stops reading at the byte cap and cuts the output', async () => {
    fake = await createFakeToolServices({ checkUrl: localChecker });
    const tool = createWebFetchTool({ maxBytes: 20_000, outputLimit: 1_000 });
    const outcome = await tool.execute({ url: `${base}/big` }, fake.context);
    expect(outcome).toMatchObject({ ok: true, metadata: { truncated: true } });
    const output = outcome.ok ? outcome.output : '';
    expect(output).toContain('[Only the first 20000 bytes were read.]');
    expect(output).toMatch(/\[Cut: showed \d+ of 20000 characters\.\]$/);
  });

  it('gives up at its timeout on a server that never finishes', async () => {
    fake = await createFakeToolServices({ checkUrl: localChecker });
    const tool = createWebFetchTool({ timeoutMs: 300 });
    expect(await tool.execute({ url: `${base}/hang` }, fake.context)).toMatchObject({ ok: false, error: expect.stringContaining('timed out') });
  });

  it('stops when the call is aborted', async () => {
    const controller = new AbortController();
    fake = await createFakeToolServices({ checkUrl: localChecker, signal: controller.signal });
    const running = webFetchTool.execute({ url: `${base}/hang` }, fake.context);
    setTimeout(() => controller.abort(), 50);
    expect(await running).toEqual({ ok: false, kind: 'infrastructure', error: 'The fetch was cancelled.' });
  });
});

describe('htmlToText', () => {
  it('turns block tags into line breaks and collapses other whitespace', () => {
    expect(htmlToText('<div>  one\n\n\n   two </div><p>three<br>four</p>')).toBe('one two\n\nthree\nfour');
  });
});
