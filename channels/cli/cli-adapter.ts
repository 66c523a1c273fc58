import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { doctorLine } from '../../src/doctor/doctor-line.js';

/** The terminal, for `npm run chat`: the smallest channel, and the example to copy for a new one. */
export const cliAdapter: ChannelAdapter = {
  name: 'cli',
  modes: ['chat'],
  // Nothing to set: the terminal is there whenever `npm run chat` runs.
  doctor: { isConfigured: () => true, check: async ({ channelName }) => [doctorLine('ok', channelName, 'npm run chat talks to the agent in this terminal')] },
  traits: (config) => ({
    locale: config.agent.locale,
    streams: false,
    limits: { proactiveSend: 'any-time' },
    // The one person at the terminal asks and decides; cards are answered with 1, 2 or 3.
    approvals: { style: 'numbered', approvers: ['local'], reachesApproversByUserId: false },
  }),
  async wire(context) {
    const terminal = context.terminal;
    if (!terminal) return { on: false, name: context.channelName, reason: 'no terminal' };
    // Loaded only for `npm run chat`: a server never loads the terminal channel (nor its Markdown renderer).
    const { createCliChannel } = await import('./cli-channel.js');
    const channel = createCliChannel({ name: context.channelName, input: terminal.input, output: terminal.output, messages: context.messagesFor(context.channelName), userName: terminal.userName });
    return { on: true, channel, detail: 'terminal', finished: channel.inputEnded };
  },
};
