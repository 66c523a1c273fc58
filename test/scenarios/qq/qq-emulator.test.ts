import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'undici';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';

// The emulator itself, driven with raw requests: the rules the channel is tested against must hold on their own.

let emulator: QqBotApiEmulator;

beforeEach(async () => {
  emulator = await startQqBotApiEmulator({ heartbeatIntervalMs: 100 });
});
afterEach(async () => {
  await emulator.stop();
});

async function token(): Promise<string> {
  const response = await fetch(`${emulator.apiRoot}/app/getAppAccessToken`, { method: 'POST', body: JSON.stringify({ appId: emulator.appId, clientSecret: emulator.secret }) });
  const json = (await response.json()) as { access_token: string; expires_in: string };
  expect(json.expires_in).toBe('7200');
  return json.access_token;
}

async function post(path: string, body: unknown, authorization?: string) {
  const response = await fetch(`${emulator.apiRoot}${path}`, { method: 'POST', headers: authorization ? { authorization } : {}, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as { code?: number; id?: string } };
}

describe('the QQ Bot API emulator', () => {
  it('refuses API calls without a valid QQBot token, and a token past its lifetime', async () => {
    const value = await token();
    const inbound = await emulator.userSends({ openid: 'U1', content: 'hi' });
    const reply = { content: 'x', msg_type: 0, msg_id: inbound.msgId };
    expect(await post('/v2/users/U1/messages', reply)).toMatchObject({ status: 401, json: { code: 11241 } });
    expect(await post('/v2/users/U1/messages', reply, `Bearer ${value}`)).toMatchObject({ status: 401, json: { code: 11243 } });
    expect(await post('/v2/users/U1/messages', reply, `QQBot ${value}`)).toMatchObject({ status: 200 });
    emulator.advance(7200_000);
    expect(await post('/v2/users/U1/messages', { ...reply, msg_seq: 2 }, `QQBot ${value}`)).toMatchObject({ status: 401 });
  });

  it('takes msg_seq 1 by default, refuses the same msg_seq twice, and needs content', async () => {
    const authorization = `QQBot ${await token()}`;
    const inbound = await emulator.memberMentionsBot({ groupOpenid: 'G1', memberOpenid: 'M1', content: 'hi' });
    expect(await post('/v2/groups/G1/messages', { content: 'a', msg_type: 0, msg_id: inbound.msgId }, authorization)).toMatchObject({ status: 200 });
    expect(await post('/v2/groups/G1/messages', { content: 'b', msg_type: 0, msg_id: inbound.msgId, msg_seq: 1 }, authorization)).toMatchObject({ status: 400, json: { code: 40054005 } });
    expect(await post('/v2/groups/G1/messages', { content: '', msg_type: 0, msg_id: inbound.msgId, msg_seq: 2 }, authorization)).toMatchObject({ status: 400 });
    expect(emulator.sentMessages()).toHaveLength(1);
  });

  it('accepts a C2C reply at 59 minutes and refuses it at 61; a group reply closes at 5 minutes', async () => {
    const authorization = `QQBot ${await token()}`;
    const c2c = await emulator.userSends({ openid: 'U1', content: 'hi' });
    const group = await emulator.memberMentionsBot({ groupOpenid: 'G1', memberOpenid: 'M1', content: 'hi' });
    emulator.advance(6 * 60_000);
    expect(await post('/v2/groups/G1/messages', { content: 'a', msg_type: 0, msg_id: group.msgId }, authorization)).toMatchObject({ json: { code: 304027 } });
    emulator.advance(53 * 60_000);
    expect(await post('/v2/users/U1/messages', { content: 'a', msg_type: 0, msg_id: c2c.msgId }, authorization)).toMatchObject({ status: 200 });
    emulator.advance(2 * 60_000);
    expect(await post('/v2/users/U1/messages', { content: 'b', msg_type: 0, msg_id: c2c.msgId, msg_seq: 2 }, authorization)).toMatchObject({ json: { code: 304027 } });
  });

  it('closes a websocket that identifies with a bad token or shard, and one that stops beating (4009)', async () => {
    const value = await token();
    const closeCode = (identify: unknown, beat: boolean) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${emulator.apiRoot.replace('http', 'ws')}/websocket`);
        socket.addEventListener('message', (event) => {
          if ((JSON.parse(String(event.data)) as { op: number }).op === 10) socket.send(JSON.stringify({ op: 2, d: identify }));
          if (beat) socket.send(JSON.stringify({ op: 1, d: null }));
        });
        socket.addEventListener('close', (event) => resolve(event.code));
      });
    expect(await closeCode({ token: 'QQBot nope', intents: 1 << 25, shard: [0, 1] }, true)).toBe(4004);
    expect(await closeCode({ token: `QQBot ${value}`, intents: 1 << 25, shard: [0, 4] }, true)).toBe(4010);
    expect(await closeCode({ token: `QQBot ${value}`, intents: 1 << 25, shard: [0, 1] }, false)).toBe(4009);
  });
});
