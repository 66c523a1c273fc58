import { createWebhookChannel, describeGateway } from '../../channels/webhook/index.js';
import type { ChannelContext, WiredChannel } from './channel-context.js';

/** The HTTP gateway: always on in server mode for /healthz and /metrics; POST /v1/messages only with WEBHOOK_SECRET. */
export async function wireWebhook(context: ChannelContext): Promise<WiredChannel> {
  const settings = context.config.channels.webhook;
  const channel = createWebhookChannel({
    host: settings.host,
    port: settings.port,
    secret: settings.secret,
    waitTimeoutMs: settings.waitTimeoutMs,
    ratePerMinute: settings.ratePerMinute,
    globalRatePerMinute: settings.globalRatePerMinute,
    acceptLegacySignature: settings.legacySignature,
    callbackAllowHosts: settings.callbackAllowHosts,
    metricsToken: settings.metricsToken,
    store: context.store,
    bus: context.bus,
    telemetry: context.telemetry,
    logger: context.logger.child({ channel: 'webhook' }),
    statusOfChannels: context.statusOfChannels,
    // Mounted as they are at start: other channels push theirs during wiring, before this one starts.
    routes: context.httpRoutes,
  });
  return { on: true, channel, detail: describeGateway({ host: settings.host, port: settings.port, messagesEnabled: channel.messagesEnabled, routes: context.httpRoutes }) };
}
