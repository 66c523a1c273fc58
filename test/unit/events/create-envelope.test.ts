import { describe, expect, it } from 'vitest';
import { createEnvelope } from '../../../src/events/create-envelope.js';

const now = new Date('2026-11-30T12:00:00.000Z');

describe('createEnvelope', () => {
  it('gives a new id that doubles as the trace id, and marks only a person’s message as attended', () => {
    const user = createEnvelope({ channel: 'telegram', chatId: '1', sessionKey: 'telegram:1', origin: 'user', now });
    expect(user.traceId).toBe(user.id);
    expect(user).toMatchObject({ at: '2026-11-30T12:00:00.000Z', origin: 'user', unattended: false });
    expect(createEnvelope({ channel: 'webhook', chatId: 'ops', sessionKey: 'webhook:ops', origin: 'system', now }).unattended).toBe(true);
    expect(createEnvelope({ channel: 'telegram', chatId: '1', sessionKey: 'cron:job', origin: 'schedule', now }).unattended).toBe(true);
    expect(createEnvelope({ channel: 'cli', chatId: 'local', sessionKey: 'cli:local', origin: 'user', now }).id).not.toBe(user.id);
  });

  it('keeps an id the channel chose, and leaves out what it does not know', () => {
    const envelope = createEnvelope({ id: 'run-7', channel: 'webhook', chatId: 'ops', sessionKey: 'webhook:ops', origin: 'system', now });
    expect(envelope.id).toBe('run-7');
    expect(envelope.traceId).toBe('run-7');
    expect(Object.keys(envelope)).not.toContain('threadId');
    expect(Object.keys(envelope)).not.toContain('messageId');
  });
});
