import { afterEach, describe, expect, it } from 'vitest';
import { qqConfig } from '../../../../channels/qq/qq-config.js';
import { createQqChannel, type QqChannel } from '../../../../channels/qq/qq-channel.js';
import { qqStrings } from '../../../../channels/qq/qq-strings.js';
import type { Leadership, LeadershipHandlers, LeadershipPort } from '../../../../src/cluster/leadership.js';
import type { DedupeRow } from '../../../../src/dedupe/create-dedupe.js';
import { messagesFor } from '../../../../src/i18n/messages.js';
import { withChannelStrings } from '../../../../src/i18n/with-channel-strings.js';
import { createStore } from '../../../../src/store/create-store.js';
import type { Store } from '../../../../src/store/key-value-namespace.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../../fakes/qq/qq-bot-api-emulator.js';
import { waitFor } from '../../../fakes/start-test-app.js';
import { createTemporaryFolder } from '../../registry/registry-fixtures.js';
import { silentLogger } from '../../registry/turn-fixtures.js';

/** A leadership port the test drives: the role is won and lost when the test says so. */
function createManualLeadership(): LeadershipPort & { readonly names: string[]; win(): Promise<void>; lose(): Promise<void> } {
  const names: string[] = [];
  let handlers: LeadershipHandlers | undefined;
  let leader = false;
  return {
    names,
    lead(name, given): Leadership {
      names.push(name);
      handlers = given;
      return {
        name,
        isLeader: () => leader,
        async stop() {
          if (leader) await handlers?.onLost();
          leader = false;
        },
      };
    },
    held: () => (leader ? names : []),
    async win() {
      leader = true;
      await handlers?.onAcquired();
    },
    async lose() {
      leader = false;
      await handlers?.onLost();
    },
  };
}

describe('the QQ channel in websocket mode, in cluster mode', () => {
  let emulator: QqBotApiEmulator | undefined;
  let channel: QqChannel | undefined;
  let store: Store | undefined;
  const folder = createTemporaryFolder('echo-qq-leadership-');
  afterEach(async () => {
    await channel?.stop();
    await emulator?.stop();
    await store?.close();
    folder.remove();
  });

  it('connects to the QQ gateway only while it holds the role, and lets go of the connection when it loses it', async () => {
    emulator = await startQqBotApiEmulator({ heartbeatIntervalMs: 1000 });
    store = await createStore({ dataDir: folder.path });
    const leadership = createManualLeadership();
    const settings = qqConfig.schema.parse({ appId: emulator.appId, appSecret: emulator.secret, mode: 'websocket', apiRoot: emulator.apiRoot });
    channel = createQqChannel({
      name: 'qq',
      settings,
      messages: withChannelStrings(messagesFor('en'), qqStrings),
      logger: await silentLogger(),
      seenMessages: store.namespace<DedupeRow>('qq-messages'),
      dedupeTtlMs: 60_000,
      leadership,
      reconnectDelayMs: () => 20,
    });
    const { gateway } = emulator;
    await channel.start(async () => ({ accepted: true }));
    expect(leadership.names).toEqual([`qq:${emulator.appId}`]);
    expect(channel.status()).toEqual({ state: 'running', detail: 'standby: another instance holds the QQ gateway connection' });
    expect(gateway.openConnections()).toBe(0);

    await leadership.win();
    await waitFor(() => gateway.counts.identifies === 1 && gateway.openConnections() === 1, 'the leader to identify');
    await waitFor(() => channel?.status().detail === 'websocket gateway connected' || undefined, 'the channel to report the connection');

    await leadership.lose();
    await waitFor(() => gateway.openConnections() === 0 || undefined, 'the connection to close');
    expect(channel.status()).toEqual({ state: 'running', detail: 'standby: another instance holds the QQ gateway connection' });
  });
});
