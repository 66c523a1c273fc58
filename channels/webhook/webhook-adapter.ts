import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { messagePath } from './message-route.js';
import { createWebhookChannel, describeMessages } from './webhook-channel.js';
import { webhookConfig } from './webhook-config.js';
import { webhookDoctor } from './webhook-doctor.js';

/** Signed POST /v1/messages on the gateway, with WEBHOOK_SECRET; answers by `?wait=true` or callback. */
export const webhookAdapter: ChannelAdapter = {
  name: webhookConfig.name,
  modes: ['server'],
  configSection: webhookConfig,
  doctor: webhookDoctor,
  // No approvals surface: nobody presses buttons on an HTTP caller's behalf.
  // A caller is answered on its request or its callback URL; nobody is written to unasked.
  traits: (config) => ({ locale: config.agent.locale, streams: false, tools: webhookConfig.read(config).tools, limits: { proactiveSend: 'never' } }),
  async wire(context) {
    const settings = webhookConfig.read(context.config);
    if (settings.secret === undefined || settings.secret === '') return { on: false, name: context.channelName, reason: `${messagePath} is not served: WEBHOOK_SECRET is not set` };
    const channel = createWebhookChannel({
      name: context.channelName,
      secret: settings.secret,
      waitTimeoutMs: settings.waitTimeoutMs,
      ratePerMinute: settings.ratePerMinute,
      globalRatePerMinute: settings.globalRatePerMinute,
      acceptLegacySignature: settings.legacySignature,
      callbackAllowHosts: settings.callbackAllowHosts,
      clientName: settings.clientName,
      store: context.store,
      telemetry: context.telemetry,
      logger: context.logger.child({ channel: context.channelName }),
      shared: context.instance.mode === 'cluster' ? { instanceId: context.instance.id } : undefined,
    });
    if (channel.messageRoute) context.gateway.mount(channel.messageRoute);
    return { on: true, channel, detail: describeMessages(channel.messagesEnabled) };
  },
};
