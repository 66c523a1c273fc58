import { describe, expect, it } from 'vitest';
import type { Risk } from '../../../src/events/risk.js';
import { messagesFor } from '../../../src/i18n/messages.js';

const failureKinds = ['rate-limited', 'auth', 'network', 'timeout', 'server', 'bad-request'];
const risks: readonly Risk[] = ['read_only', 'write', 'exec', 'dangerous'];

describe('the message catalogue', () => {
  it('says why the model failed in the reader\'s language, with no English inside the Chinese text', () => {
    const zh = messagesFor('zh-CN');
    // "API" is the one Latin word a Chinese reader sees as is.
    for (const kind of failureKinds) expect(zh.modelUnavailable(kind).replace('API', ''), kind).not.toMatch(/[A-Za-z]/);
    expect(messagesFor('en').modelUnavailable('rate-limited')).toBe('I could not reach the model (it is rate limiting us). Please try again in a moment.');
  });

  it('names every risk level in both languages', () => {
    for (const risk of risks) {
      expect(messagesFor('zh-CN').riskLevel(risk)).not.toMatch(/[A-Za-z_]/);
      expect(messagesFor('en').riskLevel(risk)).not.toContain('_');
    }
  });
});
