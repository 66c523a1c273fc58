import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { webhookConfig, webhookMessagePath } from './webhook-config.js';
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
    if (settings.secret === undefined || settings.secret === '') return { on: false, name: context.channelName, reason: `${webhookMessagePath} is not served: WEBHOOK_SECRET is not set` };
    // Loaded only when configured: an agent without WEBHOOK_SECRET does not pay for the channel's modules.
    const { createWebhookChannel, describeMessages } = await import('./webhook-channel.js');
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
