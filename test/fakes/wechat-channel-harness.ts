import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWechatChannel, type WechatSettings } from '../../channels/wechat/index.js';
import type { Channel, EmitResult } from '../../src/events/channel.js';
import type { InboundEvent } from '../../src/events/inbound-event.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { withChannelStrings } from '../../src/i18n/with-channel-strings.js';
import { wechatStrings } from '../../channels/wechat/wechat-strings.js';
import { createLogger } from '../../src/logging/create-logger.js';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import { waitFor } from './start-test-app.js';
import { createWechatMockWorld, type WechatMockWorld } from './wechat-mock-world.js';

/** One line the channel logged. */
export type LoggedLine = { readonly level: number; readonly msg: string; readonly [key: string]: unknown };

/** The WeChat channel built directly (no app) over the mock puppet, a real SQLite store, and a recording emit. */
export type WechatChannelHarness = {
  readonly world: WechatMockWorld;
  readonly channel: Channel;
  readonly store: Store;
  readonly dataDir: string;
  /** Every event the channel emitted, in order. */
  readonly events: InboundEvent[];
  readonly logs: LoggedLine[];
  /** What the channel printed for the terminal (the QR code). */
  readonly printed: string[];
  /** What emit answers; `accepted` unless a test says otherwise. */
  emitAnswer: EmitResult;
  waitForEvents(count: number): Promise<readonly InboundEvent[]>;
  waitForLog(message: string): Promise<LoggedLine>;
  stop(): Promise<void>;
};

/** Options: settings over the defaults (allowFrom alice, room team@chatroom), and whether to log in at once. */
export type HarnessOptions = {
  readonly settings?: Partial<WechatSettings>;
  readonly login?: boolean;
  readonly dataDir?: string;
  readonly world?: WechatMockWorld;
  readonly reconnectDelayMs?: number;
  /** Let wechaty load the puppet named in the settings instead of handing it the mock's. */
  readonly usePuppetFromConfig?: boolean;
};

/** Starts the harness; by default logged in, with contacts alice (allowed) and carol (a stranger). */
export async function startWechatChannelHarness(options: HarnessOptions = {}): Promise<WechatChannelHarness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'echo-wechat-'));
  const world = options.world ?? createWechatMockWorld();
  const store = await createStore({ dataDir });
  const logs: LoggedLine[] = [];
  const logger = await createLogger({ level: 'debug', pretty: false, destination: { write: (line: string) => void logs.push(JSON.parse(line) as LoggedLine) } });
  const events: InboundEvent[] = [];
  const printed: string[] = [];
  const settings: WechatSettings = {
    enabled: true,
    puppet: 'wechaty-puppet-mock',
    allowFrom: ['alice'],
    approvers: [],
    rooms: ['team@chatroom'],
    roomPolicy: 'allow-list',
    locale: 'zh-CN',
    splitAt: 2000,
    ...options.settings,
  };
  const channel = createWechatChannel({ name: 'wechat',
    settings,
    dataDir,
    messages: withChannelStrings(messagesFor(settings.locale), wechatStrings),
    logger,
    seenMessages: store.namespace<number>('wechat-messages'),
    puppet: options.usePuppetFromConfig === true ? undefined : world.puppet,
    sendIntervalMs: 0,
    sendJitterMs: 0,
    reconnectDelayMs: options.reconnectDelayMs ?? 60_000,
    printQrCode: (text) => printed.push(text),
  });
  let stopped = false;
  const harness: WechatChannelHarness = {
    world,
    channel,
    store,
    dataDir,
    events,
    logs,
    printed,
    emitAnswer: { accepted: true },
    waitForEvents: (count) => waitFor(() => events.length >= count && events, `${count} emitted event(s)`),
    waitForLog: (message) => waitFor(() => logs.find((line) => line.msg === message), `the log line "${message}"`),
    async stop() {
      if (stopped) return;
      stopped = true;
      await channel.stop();
      await store.close();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await channel.start(async (event) => {
    events.push(event);
    return harness.emitAnswer;
  });
  if (options.login !== false) {
    world.login();
    await waitFor(() => channel.status().state === 'running', 'the channel to log in');
  }
  return harness;
}
