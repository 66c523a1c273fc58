import { describe, expect, it } from 'vitest';
import type { BotApi } from '../../../../channels/telegram/bot-api.js';
import { createChatThrottle, telegramLimits } from '../../../../channels/telegram/chat-throttle.js';
import { classifyTelegramFailure, isEntityRejection } from '../../../../channels/telegram/classify-telegram-failure.js';
import { createTelegramTransport } from '../../../../channels/telegram/telegram-transport.js';
import { createLogger } from '../../../../src/logging/create-logger.js';

const token = '42:AAsecretTokenValueThatMustNotLeak';
const telegramError = (code: number, description: string, parameters?: Record<string, unknown>) =>
  Object.assign(new Error(`${code}: ${description}`), { response: { ok: false, error_code: code, description, parameters } });
const networkError = (code: string) => Object.assign(new Error(`request to http://x/bot${token}/sendMessage failed, reason: ${code}`), { name: 'FetchError', code });

/** A Bot API that fails as scripted, then answers `{ message_id: 1 }`. */
function scriptedApi(failures: unknown[]): BotApi & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async call(method) {
      calls.push(method);
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return { message_id: 1 };
    },
  };
}

async function transportOver(api: BotApi, sleeps: number[] = []) {
  const logger = await createLogger({ level: 'silent', pretty: false });
  return createTelegramTransport({ api, throttle: createChatThrottle(telegramLimits), logger, token, retryBaseMs: 10, sleep: async (milliseconds) => void sleeps.push(milliseconds) });
}

describe('telegram transport', () => {
  it('waits the retry_after of a 429 and tries again, for a send too', async () => {
    const api = scriptedApi([telegramError(429, 'Too Many Requests: retry after 7', { retry_after: 7 })]);
    const sleeps: number[] = [];
    const result = await (await transportOver(api, sleeps)).call('sendMessage', { chat_id: '1', text: 'x' }, { policy: 'visible', chatId: '1' });
    expect(result.ok).toBe(true);
    expect(api.calls).toEqual(['sendMessage', 'sendMessage']);
    expect(sleeps).toEqual([7000]);
  });

  it('never resends a message after an ambiguous network failure or a 5xx', async () => {
    for (const failure of [networkError('ECONNRESET'), telegramError(502, 'Bad Gateway')]) {
      const api = scriptedApi([failure]);
      const result = await (await transportOver(api)).call('sendMessage', { chat_id: '1', text: 'x' }, { policy: 'visible', chatId: '1' });
      expect(result.ok).toBe(false);
      expect(api.calls).toEqual(['sendMessage']);
      if (!result.ok) expect(result.retryable).toBe(false);
    }
  });

  it('retries a send whose request never left, and retries idempotent calls after 5xx and broken connections', async () => {
    const unsent = scriptedApi([networkError('ECONNREFUSED')]);
    expect((await (await transportOver(unsent)).call('sendMessage', {}, { policy: 'visible' })).ok).toBe(true);
    expect(unsent.calls).toHaveLength(2);
    const edit = scriptedApi([telegramError(500, 'Internal Server Error'), networkError('ECONNRESET')]);
    expect((await (await transportOver(edit)).call('editMessageText', {}, { policy: 'idempotent' })).ok).toBe(true);
    expect(edit.calls).toHaveLength(3);
  });

  it('does not retry a refusal, and keeps the token out of error text', async () => {
    const refused = scriptedApi([telegramError(400, 'Bad Request: chat not found')]);
    const result = await (await transportOver(refused)).call('sendMessage', {}, { policy: 'idempotent' });
    expect(refused.calls).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, retryable: false, error: 'Telegram sendMessage failed: Bad Request: chat not found' });
    const leaky = scriptedApi([networkError('ECONNRESET')]);
    const leaked = await (await transportOver(leaky)).call('sendChatAction', {}, { policy: 'none' });
    expect(leaked.ok ? '' : leaked.error).not.toContain('secretTokenValue');
  });
});

describe('classifying Bot API failures', () => {
  it('tells rate limits, refusals, server errors, unsent and ambiguous network errors apart', () => {
    expect(classifyTelegramFailure(telegramError(429, 'Too Many Requests: retry after 3'))).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 3 });
    expect(classifyTelegramFailure(telegramError(409, 'Conflict'))).toMatchObject({ kind: 'refused', status: 409 });
    expect(classifyTelegramFailure(telegramError(503, 'Service Unavailable'))).toMatchObject({ kind: 'server' });
    expect(classifyTelegramFailure(networkError('ENOTFOUND'))).toMatchObject({ kind: 'network-unsent' });
    expect(classifyTelegramFailure(networkError('ETIMEDOUT'))).toMatchObject({ kind: 'network-ambiguous' });
    expect(classifyTelegramFailure(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toMatchObject({ kind: 'aborted' });
    expect(isEntityRejection(classifyTelegramFailure(telegramError(400, "Bad Request: can't parse entities: Unsupported start tag")))).toBe(true);
    expect(isEntityRejection(classifyTelegramFailure(telegramError(400, 'Bad Request: chat not found')))).toBe(false);
  });
});
