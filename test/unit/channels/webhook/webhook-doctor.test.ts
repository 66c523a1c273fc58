import { webhookConfig } from '../../../../channels/webhook/webhook-config.js';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkWebhook, describeListen, describeWebhookMessages, probeListen } from '../../../../channels/webhook/webhook-doctor.js';
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

describe('describeListen', () => {
  it('names the port in use, and other failures in words', () => {
    expect(describeListen({ ok: false, code: 'EADDRINUSE' }, settings()).text).toContain('port 8787 is in use');
    expect(describeListen({ ok: false, code: 'EACCES' }, settings({ port: 80 })).text).toContain('port 80 needs privileges');
    expect(describeListen({ ok: false, code: 'EADDRNOTAVAIL' }, settings({ host: '10.9.9.9' })).text).toContain('10.9.9.9 is not an address of this machine');
    expect(describeListen({ ok: true }, settings())).toEqual({ status: 'ok', subject: 'webhook', text: '127.0.0.1:8787 is free for the HTTP gateway (/healthz, /metrics)' });
  });
});

describe('checkWebhook', () => {
  it('fails when something already listens on the port, and passes once it is free again', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const [, busy] = await checkWebhook(settings({ port }));
    expect(busy).toMatchObject({ status: 'fail', text: expect.stringContaining(`port ${port} is in use`) });
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    expect(await probeListen({ host: '127.0.0.1', port })).toEqual({ ok: true });
  });
});
