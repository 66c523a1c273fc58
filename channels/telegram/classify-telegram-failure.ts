/** Why a Bot API call failed, in the terms the retry policy needs. */
export type TelegramFailure =
  /** 429: Telegram said how long to wait. Nothing was done. */
  | { readonly kind: 'rate-limited'; readonly retryAfterSeconds: number; readonly description: string }
  /** 5xx: the server failed; whether it acted is not known. */
  | { readonly kind: 'server'; readonly status: number; readonly description: string }
  /** 4xx other than 429: our request was refused (bad markup, missing chat, 409 conflict...). */
  | { readonly kind: 'refused'; readonly status: number; readonly description: string }
  /** The request never left (connection refused, unknown host): nothing was done. */
  | { readonly kind: 'network-unsent'; readonly description: string }
  /** The connection broke or timed out after the request was sent: it may have been done. */
  | { readonly kind: 'network-ambiguous'; readonly description: string }
  /** We aborted it (stop, stall timeout). */
  | { readonly kind: 'aborted'; readonly description: string };

// Errors raised before a byte of the request reached the server.
const unsentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

/** Classifies what telegraf's client threw (a TelegramError, node-fetch's FetchError or AbortError). Pure. */
export function classifyTelegramFailure(error: unknown): TelegramFailure {
  const value = (error ?? {}) as { name?: unknown; message?: unknown; code?: unknown; type?: unknown; response?: unknown };
  const response = value.response as { error_code?: unknown; description?: unknown; parameters?: { retry_after?: unknown } } | undefined;
  if (response && typeof response.error_code === 'number') {
    const status = response.error_code;
    const description = typeof response.description === 'string' ? response.description : `HTTP ${status}`;
    if (status === 429) {
      const retryAfter = Number(response.parameters?.retry_after ?? /retry after (\d+)/i.exec(description)?.[1] ?? 1);
      return { kind: 'rate-limited', retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1, description };
    }
    return status >= 500 ? { kind: 'server', status, description } : { kind: 'refused', status, description };
  }
  const message = typeof value.message === 'string' ? value.message : String(error);
  if (value.name === 'AbortError' || value.type === 'aborted') return { kind: 'aborted', description: message };
  if (typeof value.code === 'string' && unsentCodes.has(value.code)) return { kind: 'network-unsent', description: message };
  return { kind: 'network-ambiguous', description: message };
}

/** True when Telegram refused the HTML markup of a message ("can't parse entities"). Pure. */
export function isEntityRejection(failure: TelegramFailure): boolean {
  return failure.kind === 'refused' && failure.status === 400 && /can't parse entities|can't find end of the entity|unsupported start tag|unexpected end tag/i.test(failure.description);
}

/** True when an edit changed nothing ("message is not modified"): the message already shows that. Pure. */
export function isNotModified(failure: TelegramFailure): boolean {
  return failure.kind === 'refused' && failure.status === 400 && /message is not modified/i.test(failure.description);
}
