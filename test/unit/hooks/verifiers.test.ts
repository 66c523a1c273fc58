import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyHookRequest } from '../../../src/hooks/verify-hook-request.js';
import { verifyStripe } from '../../../src/hooks/verify-stripe.js';

const rawBody = '{"id":"evt_1","action":"opened","text":"héllo ✓"}';
const body = JSON.parse(rawBody) as unknown;
const now = new Date('2026-12-02T08:00:00Z');
const seconds = Math.floor(now.getTime() / 1000);
const hmacOptions = { header: 'x-signature', algorithm: 'sha256' as const, encoding: 'hex' as const, prefix: '', toleranceSeconds: 300 };
const request = (headers: Record<string, string>) => ({ headers, rawBody, body });

describe('github', () => {
  const hook = { verify: 'github' as const, secret: "It's a Secret to Everybody", hmac: hmacOptions };
  it("accepts GitHub's documented test vector and names the delivery by X-GitHub-Delivery", async () => {
    // docs.github.com, "Validating webhook deliveries": secret "It's a Secret to Everybody", payload "Hello, World!".
    const documented = await verifyHookRequest(hook, { headers: { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17', 'x-github-delivery': 'd-1' }, rawBody: 'Hello, World!', body: undefined }, now);
    expect(documented).toEqual({ ok: true, deliveryId: 'd-1' });
    expect(await verifyHookRequest(hook, request({ 'x-hub-signature-256': await sign(hook.secret, rawBody) }), now)).toEqual({ ok: true });
  });
  it('refuses a missing, wrong or other-body signature', async () => {
    expect((await verifyHookRequest(hook, request({}), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request({ 'x-hub-signature-256': await sign('other', rawBody) }), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request({ 'x-hub-signature-256': await sign(hook.secret, `${rawBody} `) }), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request({ 'x-hub-signature-256': 'sha1=abc' }), now)).ok).toBe(false);
  });
});

describe('stripe', () => {
  const secret = 'whsec_test_secret';
  const v1 = (timestamp: number, key = secret) => createHmac('sha256', key).update(`${timestamp}.${rawBody}`).digest('hex');
  it('accepts the documented header shape t=…,v1=…,v0=… (v0 ignored) and names the delivery by the event id', () => {
    const header = `t=${seconds},v1=${v1(seconds)},v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39`;
    expect(verifyStripe(secret, request({ 'stripe-signature': header }), now)).toEqual({ ok: true, deliveryId: 'evt_1' });
  });
  it('accepts any of several v1 signatures while a secret rotates', () => {
    const header = `t=${seconds},v1=${v1(seconds, 'whsec_old')},v1=${v1(seconds)}`;
    expect(verifyStripe(secret, request({ 'stripe-signature': header }), now).ok).toBe(true);
  });
  it('refuses a timestamp outside 300 s either way, a tampered body, and headers without t or v1', () => {
    expect(verifyStripe(secret, request({ 'stripe-signature': `t=${seconds - 300},v1=${v1(seconds - 300)}` }), now).ok).toBe(true);
    expect(verifyStripe(secret, request({ 'stripe-signature': `t=${seconds - 301},v1=${v1(seconds - 301)}` }), now)).toMatchObject({ ok: false, reason: expect.stringContaining('300 s') });
    expect(verifyStripe(secret, request({ 'stripe-signature': `t=${seconds + 301},v1=${v1(seconds + 301)}` }), now).ok).toBe(false);
    expect(verifyStripe(secret, { headers: { 'stripe-signature': `t=${seconds},v1=${v1(seconds)}` }, rawBody: `${rawBody} `, body }, now).ok).toBe(false);
    expect(verifyStripe(secret, request({ 'stripe-signature': `v1=${v1(seconds)}` }), now).ok).toBe(false);
    expect(verifyStripe(secret, request({ 'stripe-signature': `t=${seconds},v0=${v1(seconds)}` }), now).ok).toBe(false);
    expect(verifyStripe(secret, request({}), now).ok).toBe(false);
  });
});

describe('standard webhooks', () => {
  const secret = `whsec_${Buffer.from('a key of thirty-two bytes, ok!!!').toString('base64')}`;
  const hook = { verify: 'standard-webhooks' as const, secret, hmac: hmacOptions };
  const signedHeaders = (key: string, at = new Date()) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(key).sign('msg_1', at, rawBody) });
  it('accepts a message signed by the library, webhook-id as the delivery id', async () => {
    expect(await verifyHookRequest(hook, request(signedHeaders(secret)), now)).toEqual({ ok: true, deliveryId: 'msg_1' });
  });
  it('refuses another secret, a stale timestamp and missing headers', async () => {
    expect((await verifyHookRequest(hook, request(signedHeaders(`whsec_${Buffer.from('another key').toString('base64')}`)), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request(signedHeaders(secret, new Date(Date.now() - 10 * 60_000))), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request({ 'webhook-id': 'msg_1' }), now)).ok).toBe(false);
  });
});

describe('hmac', () => {
  const secret = 'hmac-key';
  it('signs the raw body with the configured algorithm, encoding and prefix', async () => {
    for (const algorithm of ['sha256', 'sha1', 'sha512'] as const) {
      for (const encoding of ['hex', 'base64'] as const) {
        const options = { ...hmacOptions, header: 'X-Hook-Signature', algorithm, encoding, prefix: `${algorithm}=` };
        const signature = `${algorithm}=${createHmac(algorithm, secret).update(rawBody).digest(encoding)}`;
        const hook = { verify: 'hmac' as const, secret, hmac: options };
        expect(await verifyHookRequest(hook, request({ 'x-hook-signature': signature }), now)).toEqual({ ok: true });
        expect((await verifyHookRequest(hook, request({ 'x-hook-signature': signature.slice(algorithm.length + 1) }), now)).ok).toBe(false);
        expect((await verifyHookRequest({ ...hook, secret: 'other' }, request({ 'x-hook-signature': signature }), now)).ok).toBe(false);
      }
    }
  });
  it('with a timestamp header: signs <timestamp>.<body>, keeps the replay window, and names the delivery', async () => {
    const hook = { verify: 'hmac' as const, secret, hmac: { ...hmacOptions, timestampHeader: 'X-Timestamp' } };
    const signed = (timestamp: number) => ({ 'x-timestamp': String(timestamp), 'x-signature': createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex') });
    const first = await verifyHookRequest(hook, request(signed(seconds)), now);
    expect(first.ok && first.deliveryId).toMatch(/^[0-9a-f]{64}$/);
    expect((await verifyHookRequest(hook, request(signed(seconds - 301)), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request({ 'x-signature': signed(seconds)['x-signature'] }), now)).ok).toBe(false);
  });
});

describe('bearer and none', () => {
  it('bearer compares the token; none passes', async () => {
    const hook = { verify: 'bearer' as const, secret: 'token-1', hmac: hmacOptions };
    expect(await verifyHookRequest(hook, request({ authorization: 'Bearer token-1' }), now)).toEqual({ ok: true });
    expect((await verifyHookRequest(hook, request({ authorization: 'Bearer token-2' }), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request({ authorization: 'token-1' }), now)).ok).toBe(false);
    expect((await verifyHookRequest(hook, request({}), now)).ok).toBe(false);
    expect(await verifyHookRequest({ verify: 'none', secret: undefined, hmac: hmacOptions }, request({}), now)).toEqual({ ok: true });
  });
  it('a signed preset with an empty secret refuses everything', async () => {
    expect((await verifyHookRequest({ verify: 'bearer', secret: '', hmac: hmacOptions }, request({ authorization: 'Bearer ' }), now)).ok).toBe(false);
  });
});
