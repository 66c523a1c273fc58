import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway/create-gateway.js';
import { serveOnGateway } from '../fakes/serve-on-gateway.js';
import { createWebhookChannel, type WebhookChannel } from '../../channels/webhook/webhook-channel.js';
import type { InboundEvent } from '../../src/events/inbound-event.js';
import { createLogger } from '../../src/logging/create-logger.js';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import { createTelemetry } from '../../src/telemetry/telemetry.js';
import { postSigned } from '../fakes/webhook-client.js';

// Finding 9: results for ?wait stayed in memory for about two hours with their full reply text.
const secret = 'memory-secret';
const turns = 4_000;
const replyBytes = 8 * 1024;
const concurrency = 8;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

describe('webhook results are bounded (finding 9)', () => {
  let store: Store | undefined;
  let channel: WebhookChannel | undefined;
  let dataDir: string | undefined;
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.stop();
    await channel?.stop();
    await store?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it(`keeps the heap flat over ${turns} waited turns with 8 KB replies`, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'echo-memory-'));
    store = await createStore({ dataDir });
    const telemetry = createTelemetry();
    const webhook = createWebhookChannel({ name: 'webhook',
      secret,
      waitTimeoutMs: 30_000,
      ratePerMinute: 1_000_000,
      globalRatePerMinute: 1_000_000,
      store,
      telemetry,
      logger: await createLogger({ level: 'silent', pretty: false }),
    });
    channel = webhook;
    let replies = 0;
    // The agent's side of a turn: every message gets a distinct 8 KB final reply, then the turn reports its end.
    await webhook.start(async (event: InboundEvent) => {
      setImmediate(() => {
        replies += 1;
        const text = Buffer.alloc(replyBytes, String.fromCharCode(97 + (replies % 26))).toString('latin1');
        const target = { channel: 'webhook', chatId: event.chatId };
        void webhook.send({ type: 'reply', target, text, kind: 'final', causationId: event.id }).then(() => telemetry.emitTurnFinished({ causationId: event.id, status: 'completed', sessionKey: event.sessionKey }));
      });
      return { accepted: true };
    });
    const served = await serveOnGateway({ routes: [webhook.messageRoute], store, telemetry });
    gateway = served.gateway;
    const baseUrl = served.baseUrl;
    let sent = 0;
    const drive = async (count: number) => {
      const workers = Array.from({ length: concurrency }, async () => {
        for (;;) {
          sent += 1;
          if (sent > count) return;
          const answer = await postSigned({ baseUrl, secret, body: { chatId: `chat-${sent % 64}`, text: `turn ${sent}` }, query: '?wait=true' });
          expect(answer.status).toBe(200);
        }
      });
      await Promise.all(workers);
    };
    await drive(200);
    const before = heapAfterCollection();
    // Numbering goes on: a body repeated within the same second would be a replayed request (409).
    await drive(200 + turns);
    const after = heapAfterCollection();
    // Kept replies alone would be 4,000 × 8 KB = 32 MB; the bound leaves room for allocator noise only.
    expect(after - before).toBeLessThan(12 * 1024 * 1024);
  }, 180_000);
});
