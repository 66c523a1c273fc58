import { createBotApi } from './bot-api.js';
import { classifyTelegramFailure } from './classify-telegram-failure.js';

/** What `getMe` said about a bot token: the bot's username, refused, or the Bot API server could not be reached. */
export type TelegramTokenCheck =
  | { readonly ok: true; readonly username: string }
  | { readonly ok: false; readonly reason: 'refused'; readonly status: number; readonly description: string }
  | { readonly ok: false; readonly reason: 'rate-limited'; readonly retryAfterSeconds: number }
  | { readonly ok: false; readonly reason: 'unreachable' | 'server-error' };

/**
 * Calls `getMe` once through telegraf's client, cut off at the deadline. Never throws, and never
 * returns an error message: a network error's text may carry the request URL, which holds the token.
 */
export async function checkTelegramToken(options: { readonly token: string; readonly apiRoot: string; readonly timeoutMs: number }): Promise<TelegramTokenCheck> {
  const api = createBotApi({ token: options.token, apiRoot: options.apiRoot });
  try {
    const me = (await api.call('getMe', {}, AbortSignal.timeout(options.timeoutMs))) as { username?: unknown } | undefined;
    return { ok: true, username: typeof me?.username === 'string' ? me.username : '(no username)' };
  } catch (error) {
    const failure = classifyTelegramFailure(error);
    if (failure.kind === 'refused') return { ok: false, reason: 'refused', status: failure.status, description: failure.description.split(options.token).join('***') };
    if (failure.kind === 'rate-limited') return { ok: false, reason: 'rate-limited', retryAfterSeconds: failure.retryAfterSeconds };
    if (failure.kind === 'server') return { ok: false, reason: 'server-error' };
    return { ok: false, reason: 'unreachable' };
  }
}
