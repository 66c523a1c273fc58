import type { HttpResponse } from '../gateway/http-route.js';
import type { ConsoleStrings } from './console-strings.js';
import type { ConsoleViewer } from './console-viewer.js';
import { escapeHtml } from './escape-html.js';

/** The console's pages, in the order of the navigation. */
export type ConsolePageName = 'approvals' | 'activity' | 'usage' | 'schedules' | 'health';

const pageNames: readonly ConsolePageName[] = ['approvals', 'activity', 'usage', 'schedules', 'health'];

/** Headers of every console answer: a strict CSP (no inline script or style), no sniffing, no caching, no referrer (links carry tokens). */
export const consoleSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

/** A flash line above the page: what an action did, or why it did nothing. */
export type Flash = { readonly text: string; readonly bad: boolean };

/** The whole HTML page around a body: header, navigation, the viewer, the flash, the live-update note. */
export function renderPage(input: { readonly strings: ConsoleStrings; readonly lang: string; readonly page: ConsolePageName; readonly viewer: ConsoleViewer; readonly body: string; readonly flash?: Flash; readonly status?: number }): HttpResponse {
  const { strings, viewer } = input;
  const nav = pageNames.map((name) => `<a href="/console/${name}"${name === input.page ? ' aria-current="page"' : ''}>${escapeHtml(strings.nav[name])}</a>`).join('');
  const role = viewer.isApprover ? strings.approver : strings.member;
  const flash = input.flash ? `<p class="flash${input.flash.bad ? ' bad' : ''}" role="status">${escapeHtml(input.flash.text)}</p>` : '';
  const html = `<!doctype html>
<html lang="${escapeHtml(input.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(strings.nav[input.page])} · ${escapeHtml(strings.title)}</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<header>
<h1>${escapeHtml(strings.title)}</h1>
<nav>${nav}</nav>
<div class="who"><span>${escapeHtml(strings.signedInAs(viewer.person.displayName, role))}</span>${csrfForm(viewer, '/console/act/logout', `<button type="submit">${escapeHtml(strings.nav.logout)}</button>`)}</div>
</header>
<main data-page="${input.page}">
${flash}${input.body}
</main>
<p id="live" role="status">${escapeHtml(strings.live)}</p>
</body>
</html>`;
  return htmlResponse(input.status ?? 200, html);
}

/** A page without a session (login refused, not logged in); `extraHtml` (already escaped) follows the lines. */
export function renderBarePage(input: { readonly strings: ConsoleStrings; readonly lang: string; readonly status: number; readonly lines: readonly string[]; readonly extraHtml?: string }): HttpResponse {
  const html = `<!doctype html>
<html lang="${escapeHtml(input.lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(input.strings.title)}</title><link rel="stylesheet" href="/console/assets/console.css"></head>
<body><header><h1>${escapeHtml(input.strings.title)}</h1></header><main>${input.lines.map((line) => `<p class="card">${escapeHtml(line)}</p>`).join('')}${input.extraHtml ?? ''}</main></body>
</html>`;
  return htmlResponse(input.status, html);
}

/** A POST form carrying the session's CSRF token; `fields` are hidden inputs, `buttons` the already-escaped buttons. */
export function csrfForm(viewer: ConsoleViewer, action: string, buttons: string, fields: Readonly<Record<string, string>> = {}): string {
  const hidden = Object.entries({ csrf: viewer.session.csrfToken, ...fields })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<form class="inline" method="post" action="${escapeHtml(action)}">${hidden}${buttons}</form>`;
}

/** An HTML answer with the console's security headers. */
export function htmlResponse(status: number, html: string, headers: Readonly<Record<string, string>> = {}): HttpResponse {
  return { status, body: html, headers: { ...consoleSecurityHeaders, 'content-type': 'text/html; charset=utf-8', ...headers } };
}

/** A 303 to a console page (after a POST, or after login), with extra headers (the cookie). */
export function redirectTo(location: string, headers: Readonly<Record<string, string>> = {}): HttpResponse {
  return { status: 303, body: '', headers: { ...consoleSecurityHeaders, location, ...headers } };
}
