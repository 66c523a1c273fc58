import type { ChannelDoctor } from '../../src/doctor/channel-doctor.js';
import { type DoctorLine, doctorLine } from '../../src/doctor/doctor-line.js';
import { type WebhookConfig as WebhookSettings, webhookConfig } from './webhook-config.js';

/** The webhook channel's doctor line: signed messages on or off (the gateway it is served on has its own lines). */
export const webhookDoctor: ChannelDoctor = {
  isConfigured: (config) => webhookConfig.read(config).secret !== undefined,
  async check({ config }) {
    return [describeWebhookMessages(webhookConfig.read(config))];
  },
};

/** POST /v1/messages is on only with a secret; without one it is simply off, not an error. Pure. */
export function describeWebhookMessages(settings: WebhookSettings): DoctorLine {
  if (!settings.secret) return doctorLine('off', 'webhook', 'POST /v1/messages off: WEBHOOK_SECRET is not set');
  return doctorLine('ok', 'webhook', 'POST /v1/messages on (requests must be signed with WEBHOOK_SECRET)');
}
