import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { withChannelStrings } from '../../src/i18n/with-channel-strings.js';
import { openaiApiConfig } from './openai-api-config.js';
import { openaiApiDoctor } from './openai-api-doctor.js';
import { openaiApiStrings } from './openai-api-strings.js';

/** An OpenAI-compatible API on the gateway (`POST /v1/chat/completions`, `GET /v1/models`), with bearer keys from ECHO_API_KEYS. */
export const openaiApiAdapter: ChannelAdapter = {
  name: openaiApiConfig.name,
  modes: ['server'],
  configSection: openaiApiConfig,
  doctor: openaiApiDoctor,
  // A person at an OpenAI client reads the card in the answer and replies 1, 2 or 3 (or posts the decision).
  // It answers requests only: output nobody asked for waits for the conversation's next request.
  traits: (config) => {
    const settings = openaiApiConfig.read(config);
    return {
      locale: config.agent.locale,
      streams: true,
      approvals: { style: 'numbered', approvers: settings.approvers, reachesApproversByUserId: false },
      tools: settings.tools,
      limits: { proactiveSend: 'never' },
    };
  },
  async wire(context) {
    const settings = openaiApiConfig.read(context.config);
    if (settings.keys.length === 0) return { on: false, name: context.channelName, reason: 'POST /v1/chat/completions is not served: ECHO_API_KEYS is not set' };
    // Loaded only when configured: an agent without ECHO_API_KEYS does not pay for the channel's modules.
    const { createOpenaiApiChannel, defaultApiModelId, describeRoutes } = await import('./openai-api-channel.js');
    const channel = createOpenaiApiChannel({
      name: context.channelName,
      keys: settings.keys,
      approvers: settings.approvers,
      modelId: settings.modelId ?? defaultApiModelId,
      waitTimeoutMs: settings.waitTimeoutMs,
      bodyLimitBytes: settings.bodyLimitBytes,
      strings: withChannelStrings(context.messagesFor(context.channelName), openaiApiStrings),
      store: context.store,
      telemetry: context.telemetry,
      logger: context.logger.child({ channel: context.channelName }),
    });
    for (const route of channel.routes) context.gateway.mount(route);
    if (context.instance.mode === 'cluster') {
      // Waiting requests live in this process: a turn another instance runs answers on the conversation's next request.
      context.logger.warn({ channel: context.channelName }, 'in cluster mode, a request is answered only when its turn runs on this instance; others wait for their timeout and the answer comes with the next request');
    }
    return { on: true, channel, detail: describeRoutes(channel.routes) };
  },
};
