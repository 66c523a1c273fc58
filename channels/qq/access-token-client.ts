import { z } from 'zod';

/** A usable access token and when the platform stops accepting it. */
export type QqAccessToken = { readonly value: string; readonly expiresAt: Date };

/** Why no token could be had. */
export type AccessTokenFailure = { readonly ok: false; readonly code: 'credentials-refused' | 'unreachable' | 'malformed-answer'; readonly message: string };

/** Hands out the current access token, fetching a new one shortly before the old one expires. */
export type AccessTokenClient = {
  get(): Promise<{ readonly ok: true; readonly token: QqAccessToken } | AccessTokenFailure>;
  /** Forgets the cached token (an API call was refused with 401): the next `get` fetches one. */
  invalidate(): void;
};

/** What the client needs. */
export type AccessTokenClientOptions = {
  readonly appId: string;
  readonly clientSecret: string;
  /** Where `/app/getAppAccessToken` lives; `qqTokenRoot` in production, the emulator in tests. */
  readonly tokenRoot: string;
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
  /** Fetch a new token this long before the old one expires (the platform issues a new one in its last 60 s). */
  readonly refreshMarginSeconds?: number;
  readonly timeoutMs?: number;
};

const answerSchema = z.object({
  access_token: z.string().min(1).max(4096),
  // A number in the table, a string ("7200") in the example: both are accepted.
  expires_in: z.union([z.number(), z.string().regex(/^\d{1,9}$/).transform(Number)]).pipe(z.number().int().positive()),
});

/** Creates the token client. One request at a time: callers waiting for a refresh share it. */
export function createAccessTokenClient(options: AccessTokenClientOptions): AccessTokenClient {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const marginMs = (options.refreshMarginSeconds ?? 60) * 1000;
  let cached: QqAccessToken | undefined;
  let pending: ReturnType<AccessTokenClient['get']> | undefined;

  const request = async (): ReturnType<AccessTokenClient['get']> => {
    let response: Response;
    try {
      response = await fetchImpl(`${options.tokenRoot.replace(/\/+$/, '')}/app/getAppAccessToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ appId: options.appId, clientSecret: options.clientSecret }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      return { ok: false, code: 'unreachable', message: `The QQ token endpoint did not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = answerSchema.safeParse(json);
    if (parsed.success) {
      const token = { value: parsed.data.access_token, expiresAt: new Date(now().getTime() + parsed.data.expires_in * 1000) };
      cached = token;
      return { ok: true, token };
    }
    // The platform answers refused credentials with a code and message (sometimes with HTTP 200).
    const detail = z.object({ code: z.number().optional(), message: z.string().max(512).optional() }).safeParse(json);
    if (detail.success && (detail.data.code !== undefined || response.status === 401 || response.status === 403)) {
      return { ok: false, code: 'credentials-refused', message: `QQ refused the app id and secret (HTTP ${response.status}${detail.data.code === undefined ? '' : `, code ${detail.data.code}`}${detail.data.message ? `: ${detail.data.message}` : ''}).` };
    }
    return { ok: false, code: 'malformed-answer', message: `The QQ token endpoint answered HTTP ${response.status} without a token.` };
  };

  return {
    async get() {
      if (cached && cached.expiresAt.getTime() - now().getTime() > marginMs) return { ok: true, token: cached };
      pending ??= request().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
