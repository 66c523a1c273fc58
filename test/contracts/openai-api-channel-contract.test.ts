import { describeChannelContract } from './channel-contract.js';
import type { BotMessage, ChannelHarness } from './channel-harness.js';
import { doctorLinesOf } from './doctor-lines-of.js';

const key = 'sk-contract-openai-api-key-never-logged';
const conversation = 'contract';

/**
 * The OpenAI-compatible channel: real HTTP to the gateway with a bearer key. "The user's chat" is the answers the
 * client gets: one per request (cards included, as text), refusals recorded by status.
 */
const openaiApiHarness: ChannelHarness = {
  channelName: 'openai-api',
  secret: { value: key },
  doctorLines: (config) => doctorLinesOf(config),
  async startPlatform() {
    let baseUrl: string | undefined;
    let requests = 0;
    const answers: BotMessage[] = [];
    const inFlight = new Set<Promise<unknown>>();
    const complete = (text: string, withKey: string) => {
      if (baseUrl === undefined) throw new Error('the app has not started yet');
      requests += 1;
      const platformId = `request-${requests}`;
      const sending = fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${withKey}` },
        body: JSON.stringify({ model: 'echo-agent', messages: [{ role: 'user', content: text }], user: conversation }),
      }).then(async (response) => {
        const body = (await response.json()) as { readonly choices?: readonly { readonly message?: { readonly content?: string } }[] };
        const content = body.choices?.[0]?.message?.content;
        answers.push({ platformId, text: response.status === 200 && content !== undefined ? content : `HTTP ${response.status}: ${JSON.stringify(body)}` });
      });
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending)).catch(() => undefined);
      return { platformId, sending };
    };
    return {
      appSetup: () => ({ mode: 'server', environment: { ECHO_API_KEYS: `${key}:contract-user` } }),
      async connected(started) {
        const address = started.app.gateway?.address();
        if (!address) throw new Error('the gateway is not listening');
        baseUrl = `http://${address.host}:${address.port}`;
      },
      async sendAsUser(text) {
        const { platformId } = complete(text, key);
        return { text, platformId };
      },
      access: {
        kind: 'allow-list',
        async sendAsStranger(text) {
          await complete(text, 'sk-a-key-this-gateway-never-gave-out').sending;
        },
      },
      approvals: { style: 'numbered' },
      redelivery: { kind: 'never', reason: 'an OpenAI request carries no delivery id: a client that retries sends a new request, answered anew' },
      botMessages: () => [...answers],
      async stop() {
        await Promise.allSettled([...inFlight]);
      },
    };
  },
};

describeChannelContract(openaiApiHarness);
