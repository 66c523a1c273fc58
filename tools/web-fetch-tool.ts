import type { Response } from 'undici';
import { z } from 'zod';
import { describeError } from '../src/errors/echo-error.js';
import { fetchPinned } from '../src/policy/pinned-fetch.js';
import { defineTool } from '../src/registry/define-tool.js';
import type { ToolContext } from '../src/registry/tool-context.js';
import type { ToolOutcome } from '../src/registry/tool-outcome.js';

/** How long one web_fetch may take, all redirects included. */
export const webFetchTimeoutMs = 10_000;
/** Bytes of a response body read before reading stops. */
export const webFetchMaxBytes = 2 * 1024 * 1024;
/** Characters of page text the model sees. */
export const webFetchOutputLimit = 16_000;
/** Redirects followed before giving up. */
export const webFetchMaxRedirects = 5;

/** Limits of the web_fetch tool; the defaults are the constants above. */
export type WebFetchOptions = {
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly outputLimit?: number;
};

const textType = /^(text\/|application\/([\w.+-]+\+)?(json|xml|javascript|ecmascript|x-javascript|x-www-form-urlencoded)$)/;

/** Creates the web_fetch tool with other limits (tests, operators); `webFetchTool` uses the defaults. */
export function createWebFetchTool(options: WebFetchOptions = {}) {
  const limits = {
    timeoutMs: options.timeoutMs ?? webFetchTimeoutMs,
    maxBytes: options.maxBytes ?? webFetchMaxBytes,
    outputLimit: options.outputLimit ?? webFetchOutputLimit,
  };
  return defineTool({
    name: 'web_fetch',
    description:
      'Fetch a public web page or text document over http(s) and return its readable text (HTML is turned into plain ' +
      `text). Use it to read a page the person links to or a source you need. Private and local addresses are refused; ` +
      `only text content is returned, cut at ${limits.outputLimit} characters.`,
    input: z.object({
      url: z.string().min(1).max(2_048).describe('The full http:// or https:// address of the page.'),
    }),
    risk: 'read_only',
    capabilities: ['network.outbound'],
    approval: 'never',
    timeoutMs: limits.timeoutMs + 5_000,
    describeForApproval: (call) => `Fetch ${call.url}`,
    execute: (call, context) => fetchPage(call.url, context, limits),
  });
}

/** web_fetch: reads a public web page as text. */
export const webFetchTool = createWebFetchTool();

type Limits = { readonly timeoutMs: number; readonly maxBytes: number; readonly outputLimit: number };

async function fetchPage(startUrl: string, context: ToolContext, limits: Limits): Promise<ToolOutcome> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  let url = startUrl;
  for (let redirects = 0; ; redirects += 1) {
    const check = await context.services.checkUrl(url);
    if (!check.ok) return { ok: false, kind: 'business', error: `Refused to fetch ${url}: ${check.reason}` };
    let response: Response;
    let closeConnection: () => Promise<void>;
    try {
      // The connection goes to the address just checked: a second DNS answer (rebinding) cannot move it.
      const pinned = await fetchPinned({
        url,
        init: {
          redirect: 'manual',
          signal,
          headers: { 'user-agent': 'echo-agent (web_fetch)', accept: 'text/html, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1' },
        },
        pinnedAddress: check.pinnedAddress,
      });
      response = pinned.response;
      closeConnection = pinned.close;
    } catch (error) {
      if (timeout.aborted) return { ok: false, kind: 'infrastructure', error: `Fetching ${url} timed out after ${limits.timeoutMs / 1_000} s.` };
      if (context.signal.aborted) return { ok: false, kind: 'infrastructure', error: 'The fetch was cancelled.' };
      return { ok: false, kind: 'infrastructure', error: `Fetching ${url} failed: ${describeCause(error)}` };
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel().catch(() => undefined);
      await closeConnection().catch(() => undefined);
      if (redirects >= webFetchMaxRedirects) return { ok: false, kind: 'business', error: `${startUrl} redirected more than ${webFetchMaxRedirects} times.` };
      try {
        url = new URL(location, url).href;
      } catch {
        return { ok: false, kind: 'business', error: `${url} redirected to an unreadable address.` };
      }
      continue;
    }
    try {
      return await readResponse(response, url, limits);
    } catch (error) {
      if (timeout.aborted) return { ok: false, kind: 'infrastructure', error: `Reading ${url} timed out after ${limits.timeoutMs / 1_000} s.` };
      if (context.signal.aborted) return { ok: false, kind: 'infrastructure', error: 'The fetch was cancelled.' };
      return { ok: false, kind: 'infrastructure', error: `Reading ${url} failed: ${describeCause(error)}` };
    } finally {
      await closeConnection().catch(() => undefined);
    }
  }
}

async function readResponse(response: Response, url: string, limits: Limits): Promise<ToolOutcome> {
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const error = `${url} answered HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}.`;
    return { ok: false, kind: response.status >= 500 ? 'infrastructure' : 'business', error };
  }
  const contentType = response.headers.get('content-type') ?? '';
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mediaType !== '' && !textType.test(mediaType)) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, kind: 'business', error: `${url} is ${mediaType}, not text; web_fetch only reads text and web pages.` };
  }
  const { bytes, complete } = await readCapped(response, limits.maxBytes);
  if (mediaType === '' && bytes.includes(0)) return { ok: false, kind: 'business', error: `${url} looks like binary data, not text.` };
  const raw = decode(bytes, /charset=([^;]+)/i.exec(contentType)?.[1]);
  const isHtml = mediaType === 'text/html' || mediaType === 'application/xhtml+xml' || (mediaType === '' && /^\s*<(!doctype html|html)/i.test(raw));
  const title = isHtml ? /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(raw)?.[1] : undefined;
  const text = isHtml ? `${title === undefined ? '' : `Title: ${htmlToText(title)}\n\n`}${htmlToText(raw)}` : raw.trim();
  const header = `URL: ${url}\nContent-Type: ${mediaType || 'unknown'}\n${complete ? '' : `[Only the first ${limits.maxBytes} bytes were read.]\n`}\n`;
  const room = Math.max(0, limits.outputLimit - header.length);
  const body = text.length > room ? `${text.slice(0, room)}\n[Cut: showed ${room} of ${text.length} characters.]` : text;
  return { ok: true, output: `${header}${body}`, metadata: { url, status: response.status, contentType: mediaType, truncated: !complete || text.length > room } };
}

async function readCapped(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; complete: boolean }> {
  if (response.body === null) return { bytes: new Uint8Array(), complete: true };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxBytes) {
      complete = false;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, maxBytes);
  return { bytes, complete };
}

function decode(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset?.trim().replace(/^"|"$/g, '') || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Turns HTML into readable text: drops scripts, styles and tags, decodes basic entities, tidies whitespace. */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    // Source line breaks are only spaces in HTML; the breaks that matter come from block tags below.
    .replace(/\s+/g, ' ')
    .replace(/<(br|hr)\b[^>]*>/gi, '\n')
    .replace(/<\/?(p|div|section|article|header|footer|main|nav|aside|li|ul|ol|tr|table|h[1-6]|blockquote|pre|dd|dt|dl)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (entity, name: string) => decodeEntity(entity, name))
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function decodeEntity(entity: string, name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('#')) {
    const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  }
  return namedEntities[lower] ?? entity;
}

function describeCause(error: unknown): string {
  // undici hides the useful part ("ECONNREFUSED ...") in `cause`.
  const cause = error instanceof Error && error.cause !== undefined ? `: ${describeError(error.cause)}` : '';
  return `${describeError(error)}${cause}`;
}
