import { waitFor } from '../fakes/start-test-app.js';
import { startTelegramEmulator } from '../fakes/telegram-emulator.js';
import { startTelegramFaultProxy } from '../fakes/telegram-fault-proxy.js';
import { describeChannelContract } from './channel-contract.js';
import type { ChannelHarness } from './channel-harness.js';
import { doctorLinesOf } from './doctor-lines-of.js';

const token = '555000111:AAcontractTelegramTokenNeverLogged';
const userId = 1001;
const strangerId = 9009;

/**
 * Telegram: the telegram-test-api emulator over HTTP, behind the recording proxy that can deliver an update again.
 * A slow test (`npm run test:slow`): about 3 s on an idle machine, 6–9 s on a loaded one, mostly Telegram's
 * one-message-a-second chat throttle (card, answer, and the answer after a second tap in one chat) and telegraf's load.
 */
const telegramHarness: ChannelHarness = {
  channelName: 'telegram',
  secret: { value: token },
  doctorLines: (config) => doctorLinesOf(config),
  async startPlatform() {
    const emulator = await startTelegramEmulator();
    const proxy = await startTelegramFaultProxy(emulator.apiRoot);
    const user = emulator.privateChatClient(token, userId);
    const stranger = emulator.privateChatClient(token, strangerId);
    // The buttons a card was first shown with: a person can still tap one after the card was edited (a second device, a double tap).
    const buttonsShown = new Map<number, readonly { readonly text: string; readonly callback_data: string }[]>();
    const inUserChat = () => {
      const messages = emulator.botMessages(token, userId);
      for (const message of messages) {
        const buttons = message.keyboard?.flat() ?? [];
        if (buttons.length > 0 && !buttonsShown.has(message.messageId)) buttonsShown.set(message.messageId, buttons);
      }
      return messages;
    };
    return {
      appSetup: () => ({ mode: 'server', environment: { TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: proxy.apiRoot, TELEGRAM_ALLOW_FROM: String(userId) } }),
      connected: async () => undefined,
      async sendAsUser(text) {
        await user.sendMessage(user.makeMessage(text));
        return { text, platformId: text };
      },
      access: {
        kind: 'allow-list',
        async sendAsStranger(text) {
          await stranger.sendMessage(stranger.makeMessage(text));
        },
      },
      approvals: {
        style: 'buttons',
        async pressApprove(card) {
          inUserChat();
          const messageId = Number(card.platformId);
          const button = buttonsShown.get(messageId)?.find((candidate) => /Approve/.test(candidate.text));
          if (!button) throw new Error(`no Approve button was shown on the card: ${card.text}`);
          await user.sendCallback(user.makeCallbackQuery(button.callback_data, { message: { message_id: messageId } }));
        },
      },
      redelivery: {
        kind: 'redelivers',
        async deliverAgain(message) {
          const update = proxy.deliveredUpdates.find((candidate) => (candidate.message as { text?: string } | undefined)?.text === message.text);
          if (!update) throw new Error(`the bot never received an update with "${message.text}"`);
          const before = proxy.redelivered;
          proxy.deliverAgain([update]);
          await waitFor(() => proxy.redelivered > before, 'the update delivered again');
        },
      },
      botMessages: () => inUserChat().map((message) => ({ platformId: String(message.messageId), text: message.text })),
      async stop() {
        await proxy.close();
        await emulator.stop();
      },
    };
  },
};

describeChannelContract(telegramHarness);
