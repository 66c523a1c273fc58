import type { ChannelAdapter } from '../../src/app/channel-adapter.js';
import { createWebhookChannel, describeGateway } from './webhook-channel.js';
import { webhookConfig } from './webhook-config.js';
import { webhookDoctor } from './webhook-doctor.js';

/** The HTTP gateway: always on in server mode for /healthz and /metrics; POST /v1/messages only with WEBHOOK_SECRET. */
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
    const channel = createWebhookChannel({
      name: context.channelName,
      host: settings.host,
      port: settings.port,
      secret: settings.secret,
      waitTimeoutMs: settings.waitTimeoutMs,
      ratePerMinute: settings.ratePerMinute,
      globalRatePerMinute: settings.globalRatePerMinute,
      acceptLegacySignature: settings.legacySignature,
      callbackAllowHosts: settings.callbackAllowHosts,
      metricsToken: settings.metricsToken,
      clientName: settings.clientName,
      store: context.store,
      bus: context.bus,
      telemetry: context.telemetry,
      logger: context.logger.child({ channel: context.channelName }),
      statusOfChannels: context.statusOfChannels,
      instance: () => ({ id: context.instance.id, mode: context.instance.mode, leads: context.instance.leadership.held() }),
      shared: context.instance.mode === 'cluster' ? { instanceId: context.instance.id } : undefined,
      statusOfToolServers: context.statusOfToolServers,
      statusOfParkedTurns: context.statusOfParkedTurns,
      routes: context.httpRoutes,
    });
    return { on: true, channel, detail: describeGateway({ host: settings.host, port: settings.port, messagesEnabled: channel.messagesEnabled, routes: [] }) };
  },
};
