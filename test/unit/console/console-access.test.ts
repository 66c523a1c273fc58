import { afterEach, describe, expect, it } from 'vitest';
import { createApprovalsService } from '../../../src/approvals/approvals-service.js';
import { createGrantStore, type Grant } from '../../../src/approvals/grants.js';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import type { BudgetControl } from '../../../src/budgets/create-budget-control.js';
import { budgetsSchema } from '../../../src/config/config-schema.js';
import { readCookie, sessionCookie } from '../../../src/console/console-cookie.js';
import type { ConsoleDependencies } from '../../../src/console/console-dependencies.js';
import { createConsoleLinks, type StoredConsoleLink } from '../../../src/console/console-links.js';
import { consoleNamespaces, createConsoleRoutes, issueConsoleLink } from '../../../src/console/create-console-routes.js';
import type { HttpRequest, HttpResponse, HttpRoute } from '../../../src/gateway/http-route.js';
import type { TurnParking } from '../../../src/journal/create-turn-parking.js';
import { silentLogger } from '../registry/turn-fixtures.js';
import type { AuditEntry } from '../../../src/registry/audit-log.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';
import { createTelemetry } from '../../../src/telemetry/telemetry.js';

const approver = { channel: 'chat', userId: '1001', displayName: '@boss' };
const member = { channel: 'chat', userId: '2002', displayName: '@member' };

type World = { store: Store; routes: readonly HttpRoute[]; clock: { now: Date }; audit: AuditEntry[]; approvalId: string; paused: string[] };
const opened: Store[] = [];
afterEach(async () => {
  while (opened.length > 0) await opened.pop()?.close();
});

async function createWorld(options: { readonly secure?: boolean } = {}): Promise<World> {
  const store = await createStore({ url: 'memory:', dataDir: '.' });
  opened.push(store);
  const clock = { now: new Date('2026-12-02T10:00:00.000Z') };
  const audit: AuditEntry[] = [];
  const paused: string[] = [];
  const auditLog = { record: (entry: AuditEntry) => audit.push(entry), flush: async () => {}, recent: async () => audit.map((entry) => ({ ...entry, at: clock.now.toISOString() })) };
  const service = createApprovalsService({
    approvals: store.namespace<PendingApproval>('approvals'),
    index: store.namespace<string[]>('approvals-index'),
    grants: createGrantStore(store.namespace<Grant[]>('grants-session'), store.namespace<Grant[]>('grants-always')),
    audit: auditLog,
    timeoutMs: 30 * 60_000,
    now: () => clock.now,
  });
  const approval = await service.open({
    toolName: 'exec',
    risk: 'dangerous',
    input: { command: 'rm -rf /tmp/x' },
    argumentsHash: 'hash',
    summary: 'run rm -rf /tmp/x',
    reason: 'deletes files',
    requester: { id: member.userId, displayName: member.displayName },
    approvers: [approver.userId],
    approverChannel: 'chat',
    channel: 'chat',
    sessionKey: `chat:${member.userId}`,
    origin: { channel: 'chat', chatId: member.userId },
  });
  await service.attachCard(approval.id, { target: { channel: 'chat', chatId: member.userId }, messageId: '7', explanation: 'It deletes files for good.' });
  const deps: ConsoleDependencies = {
    store,
    logger: await silentLogger(),
    now: () => clock.now,
    locale: 'en',
    timezone: 'UTC',
    isApprover: (person) => person.channel === approver.channel && person.userId === approver.userId,
    secrets: [],
    approvalRecords: store.namespace<PendingApproval>('approvals'),
    decide: (input) => service.decide({ id: input.approvalId, deciderId: input.deciderId, deciderChannel: input.deciderChannel, deciderName: input.deciderName, choice: input.choice, via: 'console' }),
    audit: auditLog,
    budgets: {} as BudgetControl,
    budgetsConfig: budgetsSchema.parse({}),
    parking: { list: async () => [], retry: async () => undefined, drop: async () => undefined } as unknown as TurnParking,
    health: async () => {
      throw new Error('not used');
    },
    instances: async () => [],
    schedules: {
      jobs: async () => [],
      runNow: async () => ({ ok: true }),
      pause: async (jobId, by) => {
        paused.push(`${jobId} by ${by}`);
        return { ok: true };
      },
      resume: async () => ({ ok: true }),
      remove: async () => ({ ok: true }),
    },
    telemetry: createTelemetry(),
    sessionLifetimeMs: 60 * 60_000,
    secure: options.secure ?? false,
  };
  return { store, routes: createConsoleRoutes(deps), clock, audit, approvalId: approval.id, paused };
}

function request(input: { method: 'GET' | 'POST'; path: string; query?: Record<string, string>; cookie?: string; form?: Record<string, string>; site?: string }): HttpRequest {
  return {
    method: input.method,
    path: input.path,
    headers: { ...(input.cookie === undefined ? {} : { cookie: input.cookie }), ...(input.site === undefined ? {} : { 'sec-fetch-site': input.site }) },
    query: input.query ?? {},
    readJson: async () => ({ ok: false, status: 415, code: 'unsupported-media-type', message: 'form only' }),
    readForm: async () => (input.form === undefined ? { ok: false, status: 415, message: 'no form' } : { ok: true, fields: input.form }),
    closed: new AbortController().signal,
  };
}

/** What the gateway would do: an exact path first, then the longest prefix of the same method. */
async function send(world: World, input: Parameters<typeof request>[0]): Promise<HttpResponse> {
  const exact = world.routes.find((route) => route.path === input.path && route.matchPrefix !== true);
  const route = exact ?? [...world.routes].filter((candidate) => candidate.matchPrefix === true && input.path.startsWith(candidate.path)).sort((left, right) => right.path.length - left.path.length)[0];
  if (route === undefined || route.method !== input.method) throw new Error(`no route for ${input.method} ${input.path}`);
  return route.handle(request(input));
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';
const html = (response: HttpResponse) => String(response.body);

async function logIn(world: World, person: typeof approver): Promise<{ cookie: string; csrf: string }> {
  const url = await issueConsoleLink({ deps: { store: world.store, now: () => world.clock.now }, baseUrl: 'http://localhost:8787/', person });
  expect(url).toMatch(/^http:\/\/localhost:8787\/console\/login\?token=[0-9a-f]{64}$/);
  const confirm = await send(world, { method: 'GET', path: '/console/login', query: { token: tokenOf(url) } });
  // Opening the link (or a chat's link preview fetching it) uses nothing: only the button's POST does.
  expect(html(confirm)).toContain('action="/console/act/login"');
  const loggedIn = await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(url) } });
  expect(loggedIn.status).toBe(303);
  const setCookie = loggedIn.headers?.['set-cookie'] ?? '';
  const value = /^echo_console=([^;]+)/.exec(setCookie)?.[1] ?? '';
  const cookie = `echo_console=${value}`;
  const page = await send(world, { method: 'GET', path: '/console/approvals', cookie });
  const csrf = /name="csrf" value="([^"]+)"/.exec(html(page))?.[1] ?? '';
  expect(csrf).not.toBe('');
  return { cookie, csrf };
}

describe('web console access: links, sessions, CSRF', () => {
  it('a link logs its person in once; the session cookie is HttpOnly and SameSite=Strict; the stored keys are hashes', async () => {
    const world = await createWorld();
    const url = await issueConsoleLink({ deps: { store: world.store, now: () => world.clock.now }, baseUrl: 'http://localhost:8787', person: approver });
    const response = await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(url) } });
    expect(response.headers?.location).toBe('/console/approvals');
    expect(response.headers?.['set-cookie']).toMatch(/^echo_console=[0-9a-f]{64}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Strict$/);
    const linkKeys = (await world.store.namespace(consoleNamespaces.links).entries()).map(([key]) => key);
    const sessionKeys = (await world.store.namespace(consoleNamespaces.sessions).entries()).map(([key]) => key);
    expect(linkKeys).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(linkKeys).not.toContain(tokenOf(url));
    const cookieValue = readCookie(response.headers?.['set-cookie']?.split(';')[0], 'echo_console') ?? '';
    expect(sessionKeys).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(sessionKeys).not.toContain(cookieValue);
  });

  it('refuses a reused link, a stale link and a made-up one, and sets no cookie', async () => {
    const world = await createWorld();
    const url = await issueConsoleLink({ deps: { store: world.store, now: () => world.clock.now }, baseUrl: 'http://localhost:8787', person: approver });
    expect((await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(url) } })).status).toBe(303);
    const reused = await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(url) } });
    expect(reused.status).toBe(410);
    expect(html(reused)).toContain('used already');
    expect(reused.headers?.['set-cookie']).toBeUndefined();

    const stale = await issueConsoleLink({ deps: { store: world.store, now: () => world.clock.now }, baseUrl: 'http://localhost:8787', person: approver });
    world.clock.now = new Date(world.clock.now.getTime() + 10 * 60_000 + 1);
    const late = await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(stale) } });
    expect(late.status).toBe(410);
    expect(html(late)).toContain('expired');
    expect(late.headers?.['set-cookie']).toBeUndefined();

    const madeUp = await send(world, { method: 'POST', path: '/console/act/login', form: { token: 'a'.repeat(64) } });
    expect(madeUp.status).toBe(403);

    // A valid link posted from another site (logging the victim into the attacker's session) is refused, and not used up.
    const fresh = await issueConsoleLink({ deps: { store: world.store, now: () => world.clock.now }, baseUrl: 'http://localhost:8787', person: approver });
    const crossSite = await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(fresh) }, site: 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers?.['set-cookie']).toBeUndefined();
    expect((await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(fresh) }, site: 'same-origin' })).status).toBe(303);
  });

  it('the link book redeems a link exactly once even when two openings race', async () => {
    const world = await createWorld();
    const links = createConsoleLinks({ links: world.store.namespace<StoredConsoleLink>('race-links'), now: () => world.clock.now });
    const token = await links.issue(approver);
    const results = await Promise.all([links.redeem(token), links.redeem(token), links.redeem(token)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });

  it('pages without a session, or with a cookie this server did not make, say how to log in and show nothing', async () => {
    const world = await createWorld();
    const anonymous = await send(world, { method: 'GET', path: '/console/approvals' });
    expect(anonymous.status).toBe(401);
    expect(html(anonymous)).not.toContain('rm -rf');
    const forged = await send(world, { method: 'GET', path: '/console/approvals', cookie: `echo_console=${'b'.repeat(64)}` });
    expect(forged.status).toBe(401);
    const events = await send(world, { method: 'GET', path: '/console/events' });
    expect(events.status).toBe(401);
  });

  it('a POST without the CSRF token, or with another session’s token, changes nothing', async () => {
    const world = await createWorld();
    const boss = await logIn(world, approver);
    const other = await logIn(world, member);
    const missing = await send(world, { method: 'POST', path: '/console/act/decide', cookie: boss.cookie, form: { id: world.approvalId, choice: 'once' } });
    expect(missing.status).toBe(403);
    const foreign = await send(world, { method: 'POST', path: '/console/act/decide', cookie: boss.cookie, form: { csrf: other.csrf, id: world.approvalId, choice: 'once' } });
    expect(foreign.status).toBe(403);
    const approval = await world.store.namespace<PendingApproval>('approvals').get(world.approvalId);
    expect(approval?.status).toBe('pending');
  });

  it('a non-approver sees their own request but no buttons, and a decision they post is refused by the approvals service', async () => {
    const world = await createWorld();
    const session = await logIn(world, member);
    const page = await send(world, { method: 'GET', path: '/console/approvals', cookie: session.cookie });
    expect(html(page)).toContain('run rm -rf /tmp/x');
    expect(html(page)).toContain('It deletes files for good.');
    expect(html(page)).not.toContain('value="once"');
    const attempt = await send(world, { method: 'POST', path: '/console/act/decide', cookie: session.cookie, form: { csrf: session.csrf, id: world.approvalId, choice: 'once' } });
    expect(attempt.headers?.location).toBe('/console/approvals?done=not-allowed');
    expect((await world.store.namespace<PendingApproval>('approvals').get(world.approvalId))?.status).toBe('pending');
    const parked = await send(world, { method: 'POST', path: '/console/act/parked', cookie: session.cookie, form: { csrf: session.csrf, id: 'x', action: 'drop' } });
    expect(parked.status).toBe(403);
    const pause = await send(world, { method: 'POST', path: '/console/act/schedule', cookie: session.cookie, form: { csrf: session.csrf, id: 'daily', action: 'pause' } });
    expect(pause.status).toBe(403);
    expect(world.paused).toEqual([]);
  });

  it('an approver decides with the token: the record says via console and the audit entry carries via: console', async () => {
    const world = await createWorld();
    const session = await logIn(world, approver);
    const page = await send(world, { method: 'GET', path: '/console/approvals', cookie: session.cookie, query: { done: 'constructor' } });
    expect(page.headers?.['content-security-policy']).toContain("script-src 'self'");
    expect(html(page)).not.toContain('class="flash');
    expect(html(page)).not.toMatch(/<script(?![^>]*src=)/);
    expect(html(page)).not.toContain(' style=');
    const decided = await send(world, { method: 'POST', path: '/console/act/decide', cookie: session.cookie, form: { csrf: session.csrf, id: world.approvalId, choice: 'once' } });
    expect(decided.headers?.location).toBe('/console/approvals?done=done');
    const approval = await world.store.namespace<PendingApproval>('approvals').get(world.approvalId);
    expect(approval).toMatchObject({ status: 'approved', decidedBy: '@boss', decidedVia: 'console' });
    expect(world.audit.find((entry) => entry.kind === 'approval-decided')).toMatchObject({ via: 'console', decidedBy: '@boss' });
    const again = await send(world, { method: 'POST', path: '/console/act/decide', cookie: session.cookie, form: { csrf: session.csrf, id: world.approvalId, choice: 'deny' } });
    expect(again.headers?.location).toBe('/console/approvals?done=already-decided');
    const pause = await send(world, { method: 'POST', path: '/console/act/schedule', cookie: session.cookie, form: { csrf: session.csrf, id: 'daily', action: 'pause' } });
    expect(pause.headers?.location).toBe('/console/schedules?done=schedule-pause');
    expect(world.paused).toEqual(['daily by @boss (console)']);
    const unknown = await send(world, { method: 'POST', path: '/console/act/schedule', cookie: session.cookie, form: { csrf: session.csrf, id: 'daily', action: 'explode' } });
    expect(unknown.status).toBe(400);
  });

  it('serves only its two named assets: traversal and other names are 404', async () => {
    const world = await createWorld();
    expect((await send(world, { method: 'GET', path: '/console/assets/console.js' })).status).toBe(200);
    for (const path of ['/console/assets/../../package.json', '/console/assets/..%2F..%2Fpackage.json', '/console/assets/%2e%2e/config/default.yaml', '/console/assets/', '/console/assets/console.js/']) {
      const response = await send(world, { method: 'GET', path });
      expect(response.status, path).toBe(404);
      expect(html(response)).not.toContain('echo-agent@');
    }
  });

  it('over https the cookie is Secure with the __Host- prefix; logout clears it and ends the session', async () => {
    const world = await createWorld({ secure: true });
    const url = await issueConsoleLink({ deps: { store: world.store, now: () => world.clock.now }, baseUrl: 'https://echo.example.com', person: approver });
    const response = await send(world, { method: 'POST', path: '/console/act/login', form: { token: tokenOf(url) } });
    const setCookie = response.headers?.['set-cookie'] ?? '';
    expect(setCookie).toMatch(/^__Host-echo_console=[^;]+; Path=\/; Max-Age=3600; HttpOnly; SameSite=Strict; Secure$/);
    const cookie = setCookie.split(';')[0] ?? '';
    const page = await send(world, { method: 'GET', path: '/console/approvals', cookie });
    const csrf = /name="csrf" value="([^"]+)"/.exec(html(page))?.[1] ?? '';
    const out = await send(world, { method: 'POST', path: '/console/act/logout', cookie, form: { csrf } });
    expect(out.headers?.['set-cookie']).toContain('Max-Age=0');
    expect((await send(world, { method: 'GET', path: '/console/approvals', cookie })).status).toBe(401);
    expect(sessionCookie({ value: 'x', secure: false, maxAgeSeconds: 1 })).not.toContain('Secure');
  });
});
