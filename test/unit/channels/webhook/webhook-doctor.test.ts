import { webhookConfig } from '../../../../channels/webhook/webhook-config.js';
import { describe, expect, it } from 'vitest';
import { describeWebhookMessages } from '../../../../channels/webhook/webhook-doctor.js';
import { configWith } from '../../../fakes/config-with.js';

const settings = (webhook: Record<string, unknown> = {}) => webhookConfig.read(configWith({ channels: { webhook } }));

describe('describeWebhookMessages', () => {
  it('is off, not an error, without WEBHOOK_SECRET, and never prints the secret when set', () => {
    expect(describeWebhookMessages(settings())).toEqual({ status: 'off', subject: 'webhook', text: 'POST /v1/messages off: WEBHOOK_SECRET is not set' });
    const on = describeWebhookMessages(settings({ secret: 'hunter2-webhook-secret' }));
    expect(on.status).toBe('ok');
    expect(on.text).not.toContain('hunter2-webhook-secret');
  });
});
