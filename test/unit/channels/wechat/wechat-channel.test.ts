import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../fakes/start-test-app.js';
import { startWechatChannelHarness, type WechatChannelHarness } from '../../../fakes/wechat-channel-harness.js';

let harness: WechatChannelHarness | undefined;
const dataDirForRestart = mkdtempSync(join(tmpdir(), 'echo-wechat-restart-'));
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});
afterAll(() => rmSync(dataDirForRestart, { recursive: true, force: true }));

async function start(options: Parameters<typeof startWechatChannelHarness>[0] = {}) {
  harness = await startWechatChannelHarness(options);
  const { world } = harness;
  return { ...harness, alice: world.contact('alice', 'Alice'), carol: world.contact('carol', 'Carol') };
}

describe('WeChat channel on wechaty-puppet-mock', () => {
  it('emits an allowed private message as a user event of that contact', async () => {
    const { world, alice, waitForEvents } = await start();
    const messageId = world.say(alice, '你好');
    const [event] = await waitForEvents(1);
    expect(event).toMatchObject({
      type: 'message-received',
      channel: 'wechat',
      chatId: 'alice',
      sessionKey: 'wechat:alice',
      origin: 'user',
      unattended: false,
      messageId,
      sender: { id: 'alice', displayName: 'Alice' },
      text: '你好',
      isGroup: false,
      mentioned: true,
    });
  });

  it('ignores strangers and its own messages, and lets a contact in by the alias the owner gave', async () => {
    const { world, alice, carol, events, waitForEvents, channel } = await start({ settings: { allowFrom: ['alice', 'Dave (work)'] } });
    const dave = world.contact('wxid_dave', 'Dave', 'Dave (work)');
    world.say(carol, 'let me in');
    // The bot's own sends come back as messages from the puppet; they must not loop.
    expect(await channel.send({ type: 'reply', target: { channel: 'wechat', chatId: 'alice' }, text: 'hello Alice', kind: 'final' })).toMatchObject({ ok: true });
    world.say(alice, 'first');
    world.say(dave, 'second');
    await waitForEvents(2);
    expect(events.map((event) => (event.type === 'message-received' ? `${event.sender.id}:${event.text}` : event.type))).toEqual(['alice:first', 'wxid_dave:second']);
    expect(harness?.logs.some((line) => line.msg === 'WeChat message ignored' && line.reason === 'stranger' && line.talkerId === 'carol')).toBe(true);
  });

  it('runs a message id seen twice once, also after a restart over the same store', async () => {
    const first = await start({ dataDir: dataDirForRestart });
    first.world.sayWithId(first.alice, 'once please', 'platform-id-1');
    await first.waitForEvents(1);
    first.world.replay('platform-id-1');
    first.world.say(first.alice, 'next');
    await first.waitForEvents(2);
    expect(first.events.map((event) => (event.type === 'message-received' ? event.text : ''))).toEqual(['once please', 'next']);
    await first.stop();

    const second = await start({ dataDir: dataDirForRestart });
    second.world.sayWithId(second.alice, 'once please', 'platform-id-1');
    second.world.say(second.alice, 'after restart');
    await second.waitForEvents(1);
    expect(second.events.map((event) => (event.type === 'message-received' ? event.text : ''))).toEqual(['after restart']);
  });

  it('answers in an allowed room only when mentioned, without the mention in the text', async () => {
    const { world, alice, carol, events, waitForEvents } = await start();
    const team = world.room('team@chatroom', 'Team', [alice, carol]);
    const other = world.room('other@chatroom', 'Other', [alice]);
    world.say(carol, 'chatting among ourselves', { room: team, mentionBot: false });
    world.say(alice, 'hello?', { room: other, mentionBot: true });
    // Carol is not on the allow list: a stranger in the room as in a private chat.
    world.say(carol, '你好', { room: team, mentionBot: true });
    world.say(alice, '总结一下', { room: team, mentionBot: true });
    await waitForEvents(1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ chatId: 'team@chatroom', sessionKey: 'wechat:team@chatroom', isGroup: true, mentioned: true, text: '总结一下', sender: { id: 'alice' } });
  });

  it('sends replies to a contact and to a room, and nothing for typing', async () => {
    const { world, alice, channel } = await start();
    const team = world.room('team@chatroom', 'Team', [alice]);
    expect(await channel.send({ type: 'typing', target: { channel: 'wechat', chatId: 'alice' } })).toEqual({ ok: true });
    expect(await channel.send({ type: 'reply', target: { channel: 'wechat', chatId: 'alice' }, text: '**完成**', kind: 'final' })).toMatchObject({ ok: true });
    expect(await channel.send({ type: 'reply', target: { channel: 'wechat', chatId: team.id }, text: '大家好', kind: 'final' })).toMatchObject({ ok: true });
    expect(world.sentTo('alice')).toEqual(['完成']);
    expect(world.sentTo('team@chatroom')).toEqual(['大家好']);
  });

  it('reports a send the puppet refused as failed, with a warning, never as delivered', async () => {
    const { world, channel, logs } = await start();
    world.contact('bob', 'Bob');
    world.failSends(new Error('risk control: too frequent'));
    const delivery = await channel.send({ type: 'reply', target: { channel: 'wechat', chatId: 'bob' }, text: 'hi', kind: 'final' });
    expect(delivery).toEqual({ ok: false, error: 'WeChat did not take the message: risk control: too frequent', retryable: false });
    expect(logs.some((line) => line.msg === 'WeChat message not delivered' && line.conversationId === 'bob')).toBe(true);
    expect(world.sentTo('bob')).toEqual([]);
  });

  it('after a logout reports degraded, fails sends as retryable, and is back after the reconnect logs in', async () => {
    const { world, alice, channel } = await start({ reconnectDelayMs: 20 });
    await world.puppet.logout();
    expect(channel.status()).toMatchObject({ state: 'degraded' });
    expect(channel.status().detail).toContain('logged out');
    const delivery = await channel.send({ type: 'reply', target: { channel: 'wechat', chatId: 'alice' }, text: 'lost', kind: 'final' });
    expect(delivery).toEqual({ ok: false, error: 'WeChat is not logged in.', retryable: true });
    await harness?.waitForLog('WeChat: reconnecting');
    world.login();
    await waitFor(() => channel.status().state === 'running', 'the channel to log in again');
    expect(await channel.send({ type: 'reply', target: { channel: 'wechat', chatId: 'alice' }, text: 'back', kind: 'final' })).toMatchObject({ ok: true });
    expect(world.sentTo(alice.id)).toEqual(['back']);
  });

  it('prints the QR code and its URL on scan, and waits for the login', async () => {
    const { world, channel, printed, logs } = await start({ login: false });
    world.mocker.scan('https://login.weixin.qq.com/l/test-uuid');
    await waitFor(() => printed.length > 0, 'the QR code to be printed');
    const url = `https://wechaty.js.org/qrcode/${encodeURIComponent('https://login.weixin.qq.com/l/test-uuid')}`;
    expect(printed[0]).toContain(url);
    expect(logs.some((line) => line.msg === 'WeChat: scan the QR code with the WeChat app to log in' && line.url === url)).toBe(true);
    expect(channel.status()).toEqual({ state: 'starting', detail: 'waiting for the QR code to be scanned' });
    world.login();
    await waitFor(() => channel.status().state === 'running', 'the login');
  });

  it('hands a picture on as a message with a photo reference, and tells the person when it is too busy', async () => {
    const { world, alice, events } = await start();
    const pictureId = world.sendPicture(alice);
    await waitFor(() => events.length === 1, 'the picture as an event');
    expect(events[0]).toMatchObject({ type: 'message-received', text: '', media: [{ kind: 'photo', id: pictureId }] });
    if (harness) harness.emitAnswer = { accepted: false, reason: 'busy' };
    world.say(alice, 'are you there?');
    expect(await world.waitForSent('alice', 1)).toEqual(['我现在很忙，没能接收你的消息。请稍后再发一次。']);
    expect(events).toHaveLength(2);
  });

  it('an uninstalled puppet package leaves the channel degraded with the install command, and retries without throwing', async () => {
    harness = await startWechatChannelHarness({ settings: { puppet: 'wechaty-puppet-padlocal', puppetToken: 'puppet_padlocal_x' }, login: false, usePuppetFromConfig: true, reconnectDelayMs: 10 });
    expect(harness.channel.status()).toEqual({ state: 'degraded', detail: 'the puppet package wechaty-puppet-padlocal is not installed (npm i -E wechaty-puppet-padlocal)' });
    const logs = harness.logs;
    // Each retry is a real new attempt (a fresh bot), not a no-op on the failed one.
    await waitFor(() => logs.filter((line) => line.msg === 'WeChat: could not start; retrying with backoff').length >= 3, 'two retries');
    expect(await harness.channel.send({ type: 'reply', target: { channel: 'wechat', chatId: 'alice' }, text: 'x', kind: 'final' })).toMatchObject({ ok: false, retryable: true });
  });
});
