import { describe, expect, it } from 'vitest';
import { builtinChannels } from '../../../src/app/builtin-channels.js';
import type { ChannelAdapter } from '../../../src/channel/channel-adapter.js';
import { noChatChannelHint } from '../../../src/app/no-chat-channel-hint.js';

describe('the no-chat-channel hint of npm start', () => {
  it("names each server channel's own way to turn it on, then the terminal", () => {
    expect(noChatChannelHint(builtinChannels)).toBe(
      'No chat channel is on: set TELEGRAM_BOT_TOKEN (see README), set WECHAT_ENABLED=true and scan the QR code, set QQ_APP_ID and QQ_APP_SECRET (see README), or talk to the agent in this terminal with npm run chat.',
    );
  });

  it('takes a new channel\'s hint from its adapter', () => {
    const tcp: ChannelAdapter = {
      name: 'tcp',
      modes: ['server'],
      setupHint: 'set TCP_PORT',
      traits: (config) => ({ locale: config.agent.locale, streams: false }),
      wire: async (context) => ({ on: false, name: context.channelName, reason: 'test' }),
    };
    expect(noChatChannelHint([tcp])).toBe('No chat channel is on: set TCP_PORT, or talk to the agent in this terminal with npm run chat.');
  });
});
