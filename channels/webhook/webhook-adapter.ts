import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { messagePath } from './message-route.js';
import { createWebhookChannel, describeMessages } from './webhook-channel.js';

/** Signed POST /v1/messages on the gateway, with WEBHOOK_SECRET; answers by `?wait=true` or callback. */
export const webhookAdapter: ChannelAdapter = {
  name: 'webhook',
  modes: ['server'],
  // No approvals surface: nobody presses buttons on an HTTP caller's behalf.
  traits: (config) => ({ locale: config.agent.locale, streams: false, tools: config.channels.webhook.tools }),
  async wire(context) {
    const settings = context.config.channels.webhook;
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
