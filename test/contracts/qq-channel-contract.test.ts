import { type QqBotApiEmulator, startQqBotApiEmulator } from '../fakes/qq/qq-bot-api-emulator.js';
import { gatewayOf } from '../fakes/webhook-client.js';
import { describeChannelContract } from './channel-contract.js';
import type { BotMessage, ChannelHarness, SentMessage } from './channel-harness.js';
import { doctorLinesOf } from './doctor-lines-of.js';

const appSecret = 'qq-contract-app-secret-never-logged';
const alice = 'E4F4ALICE0OPENID';
const carol = 'C7C7CAROL0OPENID';

/**
 * QQ: the built-in adapter in webhook mode against the QQ Bot API emulator (test/fakes/qq). A person writes through
 * the emulator, which posts the signed event to the gateway's /qq/callback; what the bot sent is read back from it.
 */
const qqHarness: ChannelHarness = {
  channelName: 'qq',
  secret: { value: appSecret },
  doctorLines: (config) => doctorLinesOf(config),
  async startPlatform() {
    const emulator: QqBotApiEmulator = await startQqBotApiEmulator({ secret: appSecret });
    const sendAs = async (openid: string, text: string): Promise<SentMessage> => {
      const inbound = await emulator.userSends({ openid, content: text });
      return { text, platformId: inbound.eventId };
    };
    return {
      appSetup: () => ({
        mode: 'server',
        environment: { QQ_APP_ID: emulator.appId, QQ_APP_SECRET: appSecret, QQ_API_ROOT: emulator.apiRoot, QQ_MODE: 'webhook', QQ_ALLOW_FROM: alice },
      }),
      async connected(started) {
        // The gateway listens on a new port at every start: the callback URL set on q.qq.com follows it.
        emulator.setCallbackUrl(`${gatewayOf(started.app).baseUrl}/qq/callback`);
        const validation = await emulator.validateCallback();
        if (!validation.accepted) throw new Error(`the callback URL was not validated: ${validation.status} ${validation.body}`);
      },
      sendAsUser: (text) => sendAs(alice, text),
      access: {
        kind: 'allow-list',
        async sendAsStranger(text) {
          await sendAs(carol, text);
        },
      },
      approvals: { style: 'numbered' },
      redelivery: {
        kind: 'redelivers',
        async deliverAgain(message) {
          // QQ posts an event again when it got no acknowledgement: the same event id and message, signed anew.
          const again = await emulator.deliverAgain(message.platformId);
          // Acknowledged (op 12) and so not handed over a second time: only the dedupe stands between it and a second answer.
          if (again.push?.accepted !== true) throw new Error(`the re-delivery was not acknowledged: ${again.push?.status} ${again.push?.body}`);
        },
      },
      botMessages: (): BotMessage[] =>
        emulator
          .sentMessages()
          .filter((message) => message.scene === 'c2c' && message.chat === alice)
          .map((message) => ({ platformId: message.id, text: message.content })),
      stop: () => emulator.stop(),
    };
  },
};

describeChannelContract(qqHarness);
