import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { withChannelStrings } from '../../src/i18n/with-channel-strings.js';
import { a2aConfig } from './a2a-config.js';
import { a2aServerDoctor } from './a2a-server-doctor.js';
import { a2aServerStrings } from './a2a-server-strings.js';
import { keyToolScope } from './to-event.js';

/** The version the Agent Card states. */
const agentVersion = '0.1.0';

/** The tool selection of A2A tasks when neither the key nor the section names one: the minimal profile. */
const defaultSelection = { profile: 'minimal' } as const;

/**
 * The Agent2Agent server on the gateway (the Agent Card and JSON-RPC at /a2a), on when `channels.a2a-server.keys` has a
 * key. Other agents are machines: no cards are decided here; a task's risky call goes to the approvers' chats
 * (`approvals.route: approvers`), and the task waits `input-required` meanwhile.
 */
export const a2aServerAdapter: ChannelAdapter = {
  name: a2aConfig.name,
  modes: ['server'],
  configSection: a2aConfig,
  doctor: a2aServerDoctor,
  traits: (config) => {
    const settings = a2aConfig.read(config);
    const channelSelection = settings.tools ?? defaultSelection;
    return {
      locale: config.agent.locale,
      streams: false,
      tools: channelSelection,
      callerScopes: Object.fromEntries(settings.keys.map((key) => [keyToolScope(a2aConfig.name, key.name), { tools: key.tools ?? channelSelection, ...(key.budget === undefined ? {} : { budget: key.budget }) }])),
      publicRoutes: settings.keys.length > 0,
      limits: { proactiveSend: 'never' },
    };
  },
  async wire(context) {
    const settings = a2aConfig.read(context.config);
    if (settings.keys.length === 0) return { on: false, name: context.channelName, reason: `A2A is not served: channels.${context.channelName}.keys is empty` };
    // Loaded only when configured: an agent without A2A keys does not pay for the channel, the SDK and jose.
    const { createA2aServerChannel, describeRoutes } = await import('./a2a-server-channel.js');
    const channel = createA2aServerChannel({
      name: context.channelName,
      settings,
      version: agentVersion,
      strings: withChannelStrings(context.messagesFor(context.channelName), a2aServerStrings),
      store: context.store,
      telemetry: context.telemetry,
      turnControl: context.turns,
      logger: context.logger.child({ channel: context.channelName }),
    });
    for (const route of channel.routes) context.gateway.mount(route);
    if (context.instance.mode === 'cluster') context.logger.warn({ channel: context.channelName }, 'in cluster mode, a blocking A2A request is answered only when its turn runs on this instance; others read the task with tasks/get');
    return { on: true, channel, detail: describeRoutes(channel.routes) };
  },
};
