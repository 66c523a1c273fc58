import { gatewayOf, type GatewayAnswer, postSigned } from '../fakes/webhook-client.js';
import { describeChannelContract } from './channel-contract.js';
import type { BotMessage, ChannelHarness } from './channel-harness.js';
import { doctorLinesOf } from './doctor-lines-of.js';

const secret = 'contract-webhook-signing-secret-never-logged';
const chatId = 'contract-orders';

/**
 * The webhook channel: real HTTP to the gateway with signed requests. "The user's chat" is what the caller gets back:
 * one answer per run (`?wait=true`), so a retried delivery that is replayed from the first run is not a second answer.
 */
const webhookHarness: ChannelHarness = {
  channelName: 'webhook',
  secret: { value: secret },
  doctorLines: (config) => doctorLinesOf(config),
  async startPlatform() {
    let baseUrl: string | undefined;
    let deliveries = 0;
    const answers = new Map<string, BotMessage>();
    const inFlight = new Set<Promise<unknown>>();
    const record = (deliveryId: string, answer: GatewayAnswer) => {
      const body = answer.body as { readonly runId?: string; readonly reply?: string } | undefined;
      if (answer.status === 200 && body?.runId !== undefined) answers.set(body.runId, { platformId: body.runId, text: body.reply ?? '' });
      // Refusals are kept too (by delivery), so a case that waits in vain says what the caller got.
      else answers.set(`${deliveryId}-${answer.status}`, { platformId: deliveryId, text: `HTTP ${answer.status}: ${answer.text}` });
    };
    const deliver = (input: { readonly deliveryId: string; readonly text: string; readonly signWith: string }) => {
      if (baseUrl === undefined) throw new Error('the app has not started yet');
      const sending = postSigned({ baseUrl, secret: input.signWith, body: { chatId, senderId: 'erp', text: input.text }, headers: { 'idempotency-key': input.deliveryId }, query: '?wait=true' }).then((answer) =>
        record(input.deliveryId, answer),
      );
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending)).catch(() => undefined);
      return sending;
    };
    return {
      appSetup: () => ({ mode: 'server', environment: { WEBHOOK_SECRET: secret } }),
      async connected(started) {
        baseUrl = gatewayOf(started.app).baseUrl;
      },
      async sendAsUser(text) {
        deliveries += 1;
        const deliveryId = `delivery-${deliveries}`;
        void deliver({ deliveryId, text, signWith: secret }).catch(() => undefined);
        return { text, platformId: deliveryId };
      },
      access: {
        kind: 'allow-list',
        async sendAsStranger(text) {
          // A caller without the secret: the request is signed with another one.
          deliveries += 1;
          await deliver({ deliveryId: `delivery-${deliveries}`, text, signWith: 'a-secret-this-gateway-never-gave-out' });
        },
      },
      approvals: { style: 'none', reason: 'a webhook caller is another system: nobody decides cards on its behalf' },
      redelivery: {
        kind: 'redelivers',
        async deliverAgain(message) {
          // The caller retries the same delivery: the same body under the same Idempotency-Key, signed anew.
          await deliver({ deliveryId: message.platformId, text: message.text, signWith: secret });
        },
      },
      botMessages: () => [...answers.values()],
      async stop() {
        await Promise.allSettled([...inFlight]);
      },
    };
  },
};

describeChannelContract(webhookHarness);
