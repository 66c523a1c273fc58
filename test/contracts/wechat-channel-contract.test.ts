import { createWechatAdapter } from '../../channels/wechat/wechat-adapter.js';
import { builtinChannels } from '../../src/app/builtin-channels.js';
import { waitFor } from '../fakes/start-test-app.js';
import { createWechatMockWorld, type WechatMockWorld } from '../fakes/wechat-mock-world.js';
import { describeChannelContract } from './channel-contract.js';
import type { BotMessage, ChannelHarness } from './channel-harness.js';
import { doctorLinesOf } from './doctor-lines-of.js';

const puppetToken = 'puppet_contract_wechat_token_never_logged';

/** WeChat: the real adapter over wechaty-puppet-mock, a fresh mock world at every start (as a new login would be). */
const wechatHarness: ChannelHarness = {
  channelName: 'wechat',
  secret: { value: puppetToken },
  doctorLines: (config) => doctorLinesOf(config),
  async startPlatform() {
    let world: WechatMockWorld | undefined;
    let people: { readonly alice: ReturnType<WechatMockWorld['contact']>; readonly carol: ReturnType<WechatMockWorld['contact']> } | undefined;
    const earlier: BotMessage[] = [];
    let sentCount = 0;
    const current = () => {
      if (!world || !people) throw new Error('the app has not started yet');
      return { world, people };
    };
    const inCurrentWorld = () => (world?.sentTo('alice') ?? []).map((text, index) => ({ platformId: `${earlier.length + index}`, text }));
    const say = (who: 'alice' | 'carol', text: string) => {
      sentCount += 1;
      const platformId = `contract-message-${sentCount}`;
      const { world: now, people: them } = current();
      now.sayWithId(them[who], text, platformId);
      return { text, platformId };
    };
    return {
      appSetup() {
        if (world) earlier.push(...inCurrentWorld());
        world = createWechatMockWorld();
        people = { alice: world.contact('alice', 'Alice'), carol: world.contact('carol', 'Carol') };
        const adapter = createWechatAdapter({ puppet: world.puppet, sendIntervalMs: 0, sendJitterMs: 0, printQrCode: () => undefined });
        return {
          mode: 'server',
          environment: { WECHAT_ENABLED: 'true', WECHAT_ALLOW_FROM: 'alice', WECHAT_PUPPET_TOKEN: puppetToken },
          channels: builtinChannels.map((candidate) => (candidate.name === adapter.name ? adapter : candidate)),
        };
      },
      async connected(started) {
        const channel = started.app.channels.get('wechat');
        if (!channel) throw new Error(`the WeChat channel is not on: ${started.app.startupLines.join(' | ')}`);
        current().world.login();
        await waitFor(() => channel.status().state === 'running', 'the WeChat channel to log in');
      },
      sendAsUser: async (text) => say('alice', text),
      access: {
        kind: 'allow-list',
        async sendAsStranger(text) {
          say('carol', text);
        },
      },
      approvals: { style: 'numbered' },
      redelivery: {
        kind: 'redelivers',
        async deliverAgain(message) {
          // The puppet reports the same platform message id again, as after a reconnect or a new login.
          const { world: now, people: them } = current();
          now.sayWithId(them.alice, message.text, message.platformId);
        },
      },
      botMessages: () => [...earlier, ...inCurrentWorld()],
      stop: async () => undefined,
    };
  },
};

describeChannelContract(wechatHarness);
