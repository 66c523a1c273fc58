import { z } from 'zod';
import type { AccessTokenClient } from './access-token-client.js';

const answerSchema = z.object({ url: z.string().regex(/^wss?:\/\//).max(2048) });

/** Asks `GET /gateway` for the websocket address; failures are values. */
export async function fetchGatewayUrl(options: { readonly apiRoot: string; readonly tokens: AccessTokenClient; readonly fetch?: typeof fetch; readonly timeoutMs?: number }): Promise<{ readonly ok: true; readonly url: string } | { readonly ok: false; readonly message: string }> {
  const token = await options.tokens.get();
  if (!token.ok) return { ok: false, message: token.message };
  try {
    const response = await (options.fetch ?? fetch)(`${options.apiRoot.replace(/\/+$/, '')}/gateway`, {
      headers: { authorization: `QQBot ${token.token.value}` },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (response.status === 401) options.tokens.invalidate();
    const parsed = answerSchema.safeParse(await response.json().catch(() => undefined));
    return parsed.success ? { ok: true, url: parsed.data.url } : { ok: false, message: `GET /gateway answered HTTP ${response.status} without a websocket url.` };
  } catch (error) {
    return { ok: false, message: `GET /gateway did not answer: ${error instanceof Error ? error.message : String(error)}` };
  }
}
