import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import type { HttpRoute } from '../../../src/gateway/http-route.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { createTelemetry } from '../../../src/telemetry/telemetry.js';

let store: Store;
beforeEach(async () => {
  store = await createStore({ url: 'memory:', dataDir: '.' });
});
afterEach(async () => {
  await store.close();
});

async function gatewayOn(port = 0) {
  return createGateway({
    host: '127.0.0.1',
    port,
    store,
    bus: { stats: () => ({ queued: 0, active: 0, sessions: 0 }) },
    telemetry: createTelemetry(),
    logger: await createLogger({ level: 'silent', pretty: false }),
    statusOfChannels: () => ({ terminal: { state: 'running' } }),
    instance: () => ({ id: 'test', mode: 'single' as const, leads: [] }),
  });
}

const okRoute = (path: string): HttpRoute => ({ method: 'POST', path, handle: async () => ({ status: 200, body: { ok: true } }) });

describe('gateway listening', () => {
  it('serves /healthz on the bound port with no channel route, and a taken port is fatal only when a channel mounted a route', async () => {
    const first = await gatewayOn();
    await first.start();
    const port = first.address()?.port ?? 0;
    expect(port).toBeGreaterThan(0);
    expect(first.status()).toMatchObject({ state: 'running', detail: `127.0.0.1:${port}, /healthz, /metrics` });
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', channels: { terminal: { state: 'running' } } });
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);

    const healthOnly = await gatewayOn(port);
    await healthOnly.start();
    expect(healthOnly.status()).toMatchObject({ state: 'degraded', detail: expect.stringContaining('cannot listen') });

    const withRoutes = await gatewayOn(port);
    withRoutes.mount(okRoute('/v1/messages'));
    await expect(withRoutes.start()).rejects.toMatchObject({ code: 'gateway-listen-failed' });
    await first.stop();
    expect(first.address()).toBeUndefined();
  });

  it('refuses two routes on one path', async () => {
    const gateway = await gatewayOn();
    gateway.mount(okRoute('/hook'));
    expect(() => gateway.mount(okRoute('/hook'))).toThrow(expect.objectContaining({ code: 'gateway-route-duplicate' }));
  });
});

describe('routes channels mount', () => {
  it('serves a mounted route at its literal path with the parsed and raw body, lower-cased headers, the query and answer headers', async () => {
    const seen: { body: unknown; rawBody: string; headers: Readonly<Record<string, string | undefined>>; query: Readonly<Record<string, string | undefined>> }[] = [];
    const gateway = await gatewayOn();
    // A path with characters a router would read as a pattern.
    gateway.mount({
      method: 'POST',
      path: '/tg/bot:123(x)',
      handle: async (request) => {
        const read = await request.readJson();
        if (read.ok) seen.push({ body: read.body, rawBody: read.rawBody, headers: request.headers, query: request.query });
        return { status: 200, body: { ok: true }, headers: { 'X-Answered': 'yes' } };
      },
    });
    await gateway.start();
    try {
      const base = `http://127.0.0.1:${gateway.address()?.port}`;
      const answer = await fetch(`${base}/tg/bot:123(x)?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': 't' }, body: '{"update_id":1}' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-answered')).toBe('yes');
      expect(await answer.json()).toEqual({ ok: true });
      expect(seen[0]).toMatchObject({ body: { update_id: 1 }, rawBody: '{"update_id":1}', headers: { 'x-telegram-bot-api-secret-token': 't' }, query: { wait: 'true' } });
      expect((await fetch(`${base}/tg/bot:123(x)`)).status).toBe(405);
      expect((await fetch(`${base}/tg/bot:999(x)`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
      expect(gateway.status().detail).toContain('POST /tg/bot:123(x)');
    } finally {
      await gateway.stop();
    }
  });

  it('refuses a body over the route limit with 413 before the route sees it', async () => {
    const gateway = await gatewayOn();
    gateway.mount({
      method: 'POST',
      path: '/small',
      bodyLimitBytes: 16,
      handle: async (request) => {
        const read = await request.readJson();
        return read.ok ? { status: 200 } : { status: read.status, body: { code: read.code } };
      },
    });
    await gateway.start();
    try {
      const answer = await fetch(`http://127.0.0.1:${gateway.address()?.port}/small`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(64) }) });
      expect(answer.status).toBe(413);
      expect(await answer.json()).toEqual({ code: 'body-too-large' });
    } finally {
      await gateway.stop();
    }
  });
});

describe('gateway routes below a prefix, and streamed bodies', () => {
  it('serves a prefix route for the paths below it (the route reads the rest), never for the prefix itself; an exact route wins', async () => {
    const gateway = await gatewayOn();
    gateway.mount({ method: 'POST', path: '/v1/things/', matchPrefix: true, handle: async (request) => ({ status: 200, body: { below: request.path.slice('/v1/things/'.length) } }) });
    gateway.mount(okRoute('/v1/things/special'));
    await gateway.start();
    const base = `http://127.0.0.1:${gateway.address()?.port}`;
    try {
      const post = (path: string) => fetch(`${base}${path}`, { method: 'POST' });
      expect(await (await post('/v1/things/abc42')).json()).toEqual({ below: 'abc42' });
      expect(await (await post('/v1/things/special')).json()).toEqual({ ok: true });
      expect((await post('/v1/things/')).status).toBe(404);
      expect((await post('/v1/thingsabc')).status).toBe(404);
    } finally {
      await gateway.stop();
    }
  });

  it('streams a Readable body as it is written, with the route\'s headers', async () => {
    const { PassThrough } = await import('node:stream');
    const gateway = await gatewayOn();
    const body = new PassThrough();
    gateway.mount({ method: 'POST', path: '/stream', handle: async () => ({ status: 200, body, headers: { 'Content-Type': 'text/event-stream' } }) });
    await gateway.start();
    try {
      // Node sends the headers with the first piece written.
      body.write('data: one\n\n');
      const response = await fetch(`http://127.0.0.1:${gateway.address()?.port}/stream`, { method: 'POST' });
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const reader = response.body?.getReader();
      // The first piece arrives while the stream is still open: nothing waits for the end.
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value)).toBe('data: one\n\n');
      body.write('data: two\n\n');
      const second = await reader?.read();
      expect(new TextDecoder().decode(second?.value)).toBe('data: two\n\n');
      body.end();
      expect((await reader?.read())?.done).toBe(true);
    } finally {
      await gateway.stop();
    }
  });
});

describe('routes below routes, and HTML forms', () => {
  it('the longest prefix answers its paths (whatever the mount order), reads forms within the limit, and health() is what /healthz says', async () => {
    const gateway = await gatewayOn();
    gateway.mount({ method: 'GET', path: '/console/', matchPrefix: true, handle: async (request) => ({ status: 200, body: { page: request.path } }) });
    gateway.mount({
      method: 'POST',
      path: '/console/act/',
      matchPrefix: true,
      bodyLimitBytes: 64,
      handle: async (request) => {
        const form = await request.readForm();
        return form.ok ? { status: 200, body: { fields: form.fields } } : { status: form.status, body: { message: form.message } };
      },
    });
    await gateway.start();
    const base = `http://127.0.0.1:${gateway.address()?.port}`;
    expect(await (await fetch(`${base}/console/approvals`)).json()).toEqual({ page: '/console/approvals' });
    const posted = await fetch(`${base}/console/act/decide`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'id=a1&choice=once&choice=deny' });
    expect(await posted.json()).toEqual({ fields: { id: 'a1', choice: 'once' } });
    const json = await fetch(`${base}/console/act/decide`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    const large = await fetch(`${base}/console/act/decide`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${'x'.repeat(200)}` });
    expect(large.status).toBe(413);
    expect((await fetch(`${base}/console/act/decide`)).status).toBe(405);
    expect(await gateway.health()).toMatchObject({ status: 'ok', channels: { terminal: { state: 'running' } } });
    await gateway.stop();
  });
});
