import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createQqAdapter } from '../../../channels/qq/qq-adapter.js';
import type { ChannelAdapter } from '../../../src/channel/channel-adapter.js';
import type { Delivery, OutboundEvent } from '../../../src/events/outbound-event.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../scripted-model-server.js';
import { startTestApp, type TestApp } from '../start-test-app.js';
import { findFreePort } from '../telegram-emulator.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from './qq-bot-api-emulator.js';

/** One send the QQ channel made, and what it reported. */
export type RecordedDelivery = { readonly event: OutboundEvent; readonly delivery: Delivery };

/** The emulator, the scripted model and an app with the QQ channel (and the HTTP gateway), restartable. */
export type QqScenario = {
  readonly emulator: QqBotApiEmulator;
  readonly model: ScriptedModelServer;
  readonly dataDir: string;
  /** POST /qq/callback on the app's HTTP gateway. */
  readonly callbackUrl: string;
  readonly app: () => TestApp;
  /** What the QQ channel's `send` returned, in order (across restarts). */
  readonly deliveries: RecordedDelivery[];
  /** Texts the bot sent and QQ took, in order. */
  sentTexts(): string[];
  /** Stops the app and starts a new one over the same data folder. */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

/** What the scenario varies: the mode, who may talk, and YAML merged over the defaults. */
export type QqScenarioOptions = { readonly mode: 'webhook' | 'websocket'; readonly allowFrom?: string; readonly approvers?: string; readonly groups?: string; readonly yaml?: string; readonly heartbeatIntervalMs?: number };

/** Starts a QQ scenario: in webhook mode the emulator posts to the gateway's /qq/callback, else the bot connects. */
export async function startQqScenario(options: QqScenarioOptions): Promise<QqScenario> {
  const emulator = await startQqBotApiEmulator({ heartbeatIntervalMs: options.heartbeatIntervalMs ?? 150 });
  const model = await createScriptedModelServer({ fallback: { text: 'fallback answer' } });
  const dataDir = mkdtempSync(join(tmpdir(), 'echo-qq-'));
  const configFile = join(dataDir, 'scenario.yaml');
  writeFileSync(configFile, options.yaml ?? 'approvals:\n  explain: false\n');
  // The variables as `npm start` reads them: the adapter's config section turns them into `channels.qq`.
  const qqEnvironment = {
    QQ_APP_ID: emulator.appId,
    QQ_APP_SECRET: emulator.secret,
    QQ_MODE: options.mode,
    QQ_API_ROOT: emulator.apiRoot,
    QQ_ALLOW_FROM: options.allowFrom ?? '',
    QQ_APPROVERS: options.approvers ?? '',
    QQ_GROUPS: options.groups ?? '',
  };
  const deliveries: RecordedDelivery[] = [];
  const base = createQqAdapter({ reconnectDelayMs: () => 20 });
  // The same adapter, with the channel's sends recorded: a refusal must come back as a failed Delivery.
  const qqAdapter: ChannelAdapter = {
    ...base,
    async wire(context) {
      const wired = await base.wire(context);
      if (!wired.on) return wired;
      const channel = wired.channel;
      const send = async (event: OutboundEvent) => {
        const delivery = await channel.send(event);
        deliveries.push({ event, delivery });
        return delivery;
      };
      return { ...wired, channel: { ...channel, name: channel.name, send } };
    },
  };
  const port = await findFreePort();
  const boot = () =>
    startTestApp({
      configFile,
      dataDir,
      channels: [qqAdapter],
      environment: { OPENAI_BASE_URL: model.url, GATEWAY_PORT: String(port), ...qqEnvironment },
    });
  let current = await boot();
  const callbackUrl = `http://127.0.0.1:${port}/qq/callback`;
  if (options.mode === 'webhook') emulator.setCallbackUrl(callbackUrl);
  return {
    emulator,
    model,
    dataDir,
    callbackUrl,
    app: () => current,
    deliveries,
    sentTexts: () => emulator.sentMessages().map((message) => message.content),
    async restart() {
      await current.stop({ keepData: true });
      current = await boot();
    },
    async stop() {
      await current.stop({ keepData: true });
      await emulator.stop();
      await model.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
