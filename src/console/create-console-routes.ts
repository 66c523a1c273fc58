import type { HttpRequest, HttpResponse, HttpRoute } from '../gateway/http-route.js';
import { type ActionOutcome, type ConsoleActionName, runConsoleAction } from './console-actions.js';
import { consoleAsset } from './console-assets.js';
import { readCookie, sessionCookie, sessionCookieName } from './console-cookie.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { createConsoleLinks, type StoredConsoleLink } from './console-links.js';
import { renderConsolePage } from './console-pages.js';
import { createConsoleSessions, csrfMatches, type StoredConsoleSession } from './console-sessions.js';
import { consoleStringsFor } from './console-strings.js';
import type { ConsoleViewer } from './console-viewer.js';
import { openLiveStream } from './console-live.js';
import { createModelCallLog } from './model-call-log.js';
import { escapeHtml } from './escape-html.js';
import { consoleSecurityHeaders, type ConsolePageName, type Flash, redirectTo, renderBarePage } from './render-page.js';

const pages: readonly string[] = ['approvals', 'activity', 'usage', 'schedules', 'health'];
const actions: readonly string[] = ['decide', 'parked', 'schedule'];

/** The store namespaces of links and sessions (hashed keys; shared by every instance, kept across restarts). */
export const consoleNamespaces = { links: 'console-links', sessions: 'console-sessions' } as const;

/**
 * The console's routes on the gateway: `GET /console` (to the approvals page), `GET /console/...` (login, pages,
 * assets, the live stream) and `POST /console/act/...` (decisions and actions, CSRF-checked).
 */
export function createConsoleRoutes(deps: ConsoleDependencies): readonly HttpRoute[] {
  const strings = consoleStringsFor(deps.locale);
  const links = createConsoleLinks({ links: deps.store.namespace<StoredConsoleLink>(consoleNamespaces.links), now: deps.now });
  const sessions = createConsoleSessions({ sessions: deps.store.namespace<StoredConsoleSession>(consoleNamespaces.sessions), now: deps.now, lifetimeMs: deps.sessionLifetimeMs });
  const modelCalls = createModelCallLog({ telemetry: deps.telemetry, now: deps.now });
  const bare = (status: number, lines: readonly string[]) => renderBarePage({ strings, lang: deps.locale, status, lines });

  async function viewerOf(request: HttpRequest): Promise<ConsoleViewer | undefined> {
    const session = await sessions.find(readCookie(request.headers.cookie, sessionCookieName(deps.secure)));
    return session === undefined ? undefined : { session, person: session.person, isApprover: deps.isApprover(session.person) };
  }

  function flashOf(code: string | undefined): Flash | undefined {
    if (code === undefined) return undefined;
    const decision = ownString(strings.decision, code);
    if (decision !== undefined) return { text: decision, bad: code !== 'done' };
    if (code === 'parked-missing') return { text: strings.health.parkedMissing, bad: true };
    if (code === 'schedule-failed') return { text: strings.schedules.failed, bad: true };
    const parked = code.startsWith('parked-') ? ownString(strings.health.parkedDone, code.slice('parked-'.length)) : undefined;
    if (parked !== undefined) return { text: parked, bad: false };
    const schedule = code.startsWith('schedule-') ? ownString(strings.schedules.done, code.slice('schedule-'.length)) : undefined;
    return schedule === undefined ? undefined : { text: schedule, bad: false };
  }

  /** GET of the link: a page with one button that posts the token. Link previews (a chat fetching the URL) use nothing. */
  function confirmLogin(request: HttpRequest): HttpResponse {
    const token = request.query.token ?? '';
    const form = `<form method="post" action="/console/act/login"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="approve">${escapeHtml(strings.login.confirm)}</button></form>`;
    return renderBarePage({ strings, lang: deps.locale, status: 200, lines: [strings.login.intro], extraHtml: `<div class="card">${form}</div>` });
  }

  async function login(token: string): Promise<HttpResponse> {
    const redeemed = await links.redeem(token);
    if (!redeemed.ok) return bare(redeemed.code === 'unknown' ? 403 : 410, [strings.login[redeemed.code], strings.login.again]);
    const { cookieValue } = await sessions.open(redeemed.person);
    deps.logger.info({ channel: redeemed.person.channel, userId: redeemed.person.userId }, 'console session opened from a one-time link');
    return redirectTo('/console/approvals', { 'set-cookie': sessionCookie({ value: cookieValue, secure: deps.secure, maxAgeSeconds: deps.sessionLifetimeMs / 1000 }) });
  }

  const entry: HttpRoute = { method: 'GET', path: '/console', handle: async () => redirectTo('/console/approvals') };

  const pagesRoute: HttpRoute = {
    method: 'GET',
    path: '/console/',
    matchPrefix: true,
    async handle(request) {
      const rest = request.path.slice('/console/'.length);
      if (rest.startsWith('assets/')) {
        const asset = consoleAsset(rest.slice('assets/'.length));
        if (asset === undefined) return { status: 404, body: 'not found', headers: { ...consoleSecurityHeaders, 'content-type': 'text/plain; charset=utf-8' } };
        return { status: 200, body: asset.body, headers: { ...consoleSecurityHeaders, 'content-type': asset.contentType, 'cache-control': 'no-cache' } };
      }
      if (rest === 'login') return confirmLogin(request);
      const viewer = await viewerOf(request);
      if (viewer === undefined) return bare(401, [strings.refused['no-session']]);
      if (rest === 'events') return openLiveStream(deps, viewer, request.closed);
      if (rest === '') return redirectTo('/console/approvals');
      if (!pages.includes(rest)) return bare(404, [`${request.path}: not found`]);
      return renderConsolePage({ deps, strings, viewer, page: rest as ConsolePageName, request, flash: flashOf(request.query.done), modelCalls });
    },
  };

  const actionsRoute: HttpRoute = {
    method: 'POST',
    path: '/console/act/',
    matchPrefix: true,
    bodyLimitBytes: 16 * 1024,
    async handle(request) {
      const name = request.path.slice('/console/act/'.length);
      // Browsers say where a form came from: one posted by another site (a login to the attacker's session, or any
      // action) is refused before anything is read. Older browsers without the header still meet the CSRF token.
      const site = request.headers['sec-fetch-site'];
      if (site === 'cross-site' || site === 'same-site') return bare(403, [strings.refused['bad-csrf']]);
      if (name === 'login') {
        const form = await request.readForm();
        return form.ok ? login(form.fields.token ?? '') : bare(form.status, [strings.refused['bad-form']]);
      }
      const viewer = await viewerOf(request);
      if (viewer === undefined) return bare(401, [strings.refused['no-session']]);
      const form = await request.readForm();
      if (!form.ok) return bare(form.status, [strings.refused['bad-form']]);
      // SameSite=Strict keeps the cookie off cross-site requests; the token also covers same-site attackers and old browsers.
      if (!csrfMatches(viewer.session, form.fields.csrf)) return bare(403, [strings.refused['bad-csrf']]);
      if (name === 'logout') {
        await sessions.close(viewer.session);
        const page = bare(200, [strings.login.again]);
        return { ...page, headers: { ...page.headers, 'set-cookie': sessionCookie({ value: '', secure: deps.secure, maxAgeSeconds: 0 }) } };
      }
      if (!actions.includes(name)) return bare(404, [`${request.path}: not found`]);
      const outcome: ActionOutcome = await runConsoleAction(deps, viewer, name as ConsoleActionName, form.fields);
      return outcome.ok ? outcome.response : bare(outcome.refusal === 'not-approver' ? 403 : 400, [strings.refused[outcome.refusal]]);
    },
  };

  return [entry, pagesRoute, actionsRoute];
}

/** A record's own string under a key from the query (never one of Object's prototype). */
function ownString(record: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Issues a login link for a person: the token's hash is stored, the URL carries the token. */
export async function issueConsoleLink(input: { readonly deps: Pick<ConsoleDependencies, 'store' | 'now'>; readonly baseUrl: string; readonly person: StoredConsoleLink['person'] }): Promise<string> {
  const links = createConsoleLinks({ links: input.deps.store.namespace<StoredConsoleLink>(consoleNamespaces.links), now: input.deps.now });
  const token = await links.issue(input.person);
  return `${input.baseUrl.replace(/\/+$/, '')}/console/login?token=${token}`;
}
