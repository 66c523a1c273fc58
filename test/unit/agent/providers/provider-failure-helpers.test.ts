import { describe, expect, it } from 'vitest';
import { createModelFailure } from '../../../../src/agent/providers/create-model-failure.js';
import { describeConnectionError } from '../../../../src/agent/providers/describe-connection-error.js';
import { failureKindForStatus } from '../../../../src/agent/providers/failure-kind-for-status.js';
import { parseRetryAfter } from '../../../../src/agent/providers/parse-retry-after.js';

describe('parseRetryAfter', () => {
  it('reads seconds, milliseconds and HTTP dates, and ignores garbage', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }))).toBe(7);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1.5);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), () => now)).toBe(30);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-3' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('failureKindForStatus', () => {
  it('classifies statuses', () => {
    expect([429, 408, 500, 503, 529, 401, 403, 400, 404, 422].map(failureKindForStatus)).toEqual([
      'rate-limited',
      'timeout',
      'server',
      'server',
      'server',
      'auth',
      'auth',
      'bad-request',
      'bad-request',
      'bad-request',
    ]);
  });
});

describe('createModelFailure', () => {
  it('derives retryable from the kind', () => {
    const retryable = (['rate-limited', 'server', 'network', 'timeout', 'auth', 'bad-request', 'aborted'] as const).map(
      (kind) => createModelFailure({ kind, message: 'x', provider: 'p' }).retryable,
    );
    expect(retryable).toEqual([true, true, true, true, false, false, false]);
  });

  it('redacts the secret everywhere and trims long messages', () => {
    const failure = createModelFailure({
      kind: 'auth',
      message: `bad key sk-123 (sk-123) ${'x'.repeat(1000)}`,
      provider: 'p',
      secret: 'sk-123',
    });
    expect(failure.message).not.toContain('sk-123');
    expect(failure.message.startsWith('bad key [redacted] ([redacted])')).toBe(true);
    expect(failure.message.length).toBeLessThanOrEqual(501);
  });

  it('keeps retryAfterSeconds only when given', () => {
    expect(createModelFailure({ kind: 'rate-limited', message: 'x', provider: 'p', retryAfterSeconds: 3 }).retryAfterSeconds).toBe(3);
    expect(createModelFailure({ kind: 'rate-limited', message: 'x', provider: 'p' })).not.toHaveProperty('retryAfterSeconds');
  });
});

describe('describeConnectionError', () => {
  it('joins the cause chain without repeats', () => {
    const root = new Error('connect ECONNREFUSED 127.0.0.1:1');
    const error = new Error('Connection error.', { cause: new Error('fetch failed', { cause: root }) });
    expect(describeConnectionError(error)).toBe('Connection error. — fetch failed — connect ECONNREFUSED 127.0.0.1:1');
  });
});
