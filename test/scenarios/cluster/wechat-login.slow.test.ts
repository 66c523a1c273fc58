// Cluster mode, WeChat: only one instance holds the login; a turn that runs on another instance hands its reply to
// the login holder through the queue, and the person gets it from the one logged-in account.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWechatAdapter } from '../../../channels/wechat/wechat-adapter.js';
import { builtinChannels } from '../../../src/app/builtin-channels.js';
import { createScratchDatabase, isPostgresUp } from '../../contracts/scratch-postgres.js';
import { createScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';
import { createGate, gatewayOf, postSigned } from '../../fakes/webhook-client.js';
import { createWechatMockWorld, type WechatMockWorld } from '../../fakes/wechat-mock-world.js';

const secret = 'cluster-wechat-secret';
const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the cluster WeChat scenario is skipped.');

describe.skipIf(!postgresUp)('the WeChat login in cluster mode', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 60_000);

  it('logs in on one instance only and sends the replies of turns other instances ran through it', async () => {
    const database = await createScratchDatabase();
    cleanups.push(() => database.drop());
    const model = await createScriptedModelServer();
    cleanups.push(() => model.close());
    const folder = mkdtempSync(join(tmpdir(), 'echo-cluster-wechat-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const oneSlot = join(folder, 'one-slot.yaml');
    writeFileSync(oneSlot, 'bus:\n  maxConcurrentTurns: 1\n');
    const blocker = createGate();
    cleanups.push(async () => blocker.open());
    model.setFallback(async (_body, context) => {
      if (context.lastUserText === 'hold the only slot') {
        await blocker.opened;
        return { text: 'released' };
      }
      return { text: `answer: ${context.lastUserText}` };
    });
    const environment = { ECHO_STORAGE_URL: database.url, OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, GATEWAY_PORT: '0', WECHAT_ENABLED: 'true', WECHAT_ALLOW_FROM: 'alice' };
    const start = async (world: WechatMockWorld, configFile?: string): Promise<TestApp> => {
      const wechat = createWechatAdapter({ puppet: world.puppet, sendIntervalMs: 0, sendJitterMs: 0, printQrCode: () => undefined });
      const app = await startTestApp({ environment, configFile, channels: builtinChannels.map((adapter) => (adapter.name === wechat.name ? wechat : adapter)) });
      cleanups.push(() => app.stop());
      return app;
    };
    const wechatOf = (app: TestApp) => app.app.channels.get('wechat');

    const holderWorld = createWechatMockWorld();
    const holder = await start(holderWorld, oneSlot);
    await waitFor(() => (wechatOf(holder)?.status().detail === 'waiting for login' ? true : undefined), 'the first instance to take the login');
    holderWorld.login();
    await waitFor(() => (wechatOf(holder)?.status().state === 'running' && wechatOf(holder)?.status().detail !== 'waiting for login' ? true : undefined), 'the login');
    // The holder's only turn slot is taken, so the next turn runs on the other instance.
    expect((await postSigned({ baseUrl: gatewayOf(holder.app).baseUrl, secret, body: { chatId: 'blocker', text: 'hold the only slot' } })).status).toBe(202);
    await waitFor(() => (holder.app.bus.stats().active === 1 ? true : undefined), 'the holder busy');

    const standbyWorld = createWechatMockWorld();
    const standby = await start(standbyWorld);
    expect(wechatOf(standby)?.status().detail).toContain('standby');

    const alice = holderWorld.contact('alice', 'Alice');
    holderWorld.say(alice, 'hello from WeChat');
    const sent = await holderWorld.waitForSent('alice', 1, 30_000);
    expect(sent).toEqual(['answer: hello from WeChat']);
    expect(holder.app.bus.stats().active).toBe(1);
    // The standby instance never logged in and sent nothing itself.
    expect(standbyWorld.sentTo('alice')).toEqual([]);
    expect(wechatOf(standby)?.status().detail).toContain('standby');
    blocker.open();
  }, 60_000);
});
