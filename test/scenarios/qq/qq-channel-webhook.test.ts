import { afterEach, describe, expect, it } from 'vitest';
import { pushCallback } from '../../fakes/qq/push-callback.js';
import { platformKey, platformSign } from '../../fakes/qq/qq-signing.js';
import { type QqScenario, startQqScenario } from '../../fakes/qq/qq-scenario.js';
import { waitFor } from '../../fakes/start-test-app.js';

const alice = 'E4F4AEA33253A2797FB897C50B81D7ED';
const group = 'C9F778FE6ADF9D1D1DBE395BF744A33A';
const member = '7C1A3B2D9E8F7061524334251607F8E9';
const reminder = { name: 'schedule_task', arguments: { schedule: '0 9 * * *', prompt: 'Water the plants' } };

describe('the QQ channel in webhook mode, through the HTTP gateway', () => {
  let scenario: QqScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  const chatCompletions = (current: QqScenario) => current.model.requests.filter((request) => request.path === '/v1/chat/completions').length;

  it('answers a private message with a passive reply naming it (msg_id, msg_seq 1), and an @-message in a listed group', async () => {
    scenario = await startQqScenario({ mode: 'webhook', allowFrom: alice, groups: group });
    const current = scenario;
    expect(current.app().app.startupLines.find((line) => line.startsWith('qq:'))).toBe('qq: on (webhook at /qq/callback, 1 allowed user, 1 group)');
    expect((await current.emulator.validateCallback()).accepted).toBe(true);

    current.model.enqueue({ text: 'hello from echo-agent' });
    const inbound = await current.emulator.userSends({ openid: alice, content: 'hello' });
    expect(inbound.push?.accepted).toBe(true);
    const reply = await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'hello from echo-agent'), 'the private reply');
    expect(reply).toMatchObject({ scene: 'c2c', chat: alice, msgId: inbound.msgId, msgSeq: 1 });

    current.model.enqueue({ text: 'hello, group' });
    const mention = await current.emulator.memberMentionsBot({ groupOpenid: group, memberOpenid: member, content: 'what is up?' });
    expect(mention.push?.accepted).toBe(true);
    const groupReply = await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'hello, group'), 'the group reply');
    expect(groupReply).toMatchObject({ scene: 'group', chat: group, msgId: mention.msgId, msgSeq: 1 });
    // The model read the text without the leading blank QQ leaves where the mention was.
    expect(JSON.stringify(current.model.requests.at(-1)?.body?.messages)).toContain('"what is up?"');
    await current.app().app.bus.idle();
    expect(current.emulator.refusals()).toEqual([]);
  });

  it('tells a stranger their openid and an unlisted group its openid, once each, and runs no turn for them', async () => {
    scenario = await startQqScenario({ mode: 'webhook', allowFrom: alice });
    const current = scenario;
    const stranger = 'B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0B0';
    const first = await current.emulator.userSends({ openid: stranger, content: 'hi' });
    await current.emulator.userSends({ openid: stranger, content: 'hi again' });
    await current.emulator.memberMentionsBot({ groupOpenid: group, memberOpenid: member, content: 'hello bot' });
    await current.emulator.memberMentionsBot({ groupOpenid: group, memberOpenid: member, content: 'hello again' });
    await current.app().app.bus.idle();
    const notices = current.emulator.sentMessages();
    expect(notices.map((message) => [message.chat, message.msgId === undefined])).toEqual([
      [stranger, false],
      [group, false],
    ]);
    expect(notices[0]).toMatchObject({ msgId: first.msgId, content: expect.stringContaining(`Your openid is ${stranger}`) });
    expect(notices[1]?.content).toContain(`Its openid is ${group}`);
    expect(chatCompletions(current)).toBe(0);
  });

  it('shows a risky call as a numbered card that says what QQ allows a schedule; "1" approves and the turn answers once', async () => {
    scenario = await startQqScenario({ mode: 'webhook', allowFrom: alice });
    const current = scenario;
    current.model.enqueue({ toolCalls: [reminder] });
    const asked = await current.emulator.userSends({ openid: alice, content: 'remind me to water the plants every morning' });
    const card = await waitFor(() => current.emulator.sentMessages().find((message) => message.content.includes('Reply 1')), 'the numbered card');
    expect(card.msgId).toBe(asked.msgId);
    expect(card.content).toContain('Every 0 9 * * *');
    expect(card.content).toContain('Water the plants');
    expect(card.content).toContain('QQ no longer delivers messages a bot sends on its own');

    current.model.enqueue({ text: 'Your reminder is set.' });
    const approval = await current.emulator.userSends({ openid: alice, content: '1' });
    const answer = await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'Your reminder is set.'), 'the resumed answer');
    // A reply names a message QQ still takes replies to: the question, or the "1" that approved.
    expect([asked.msgId, approval.msgId]).toContain(answer.msgId);
    await current.app().app.bus.idle();
    expect(current.sentTexts().filter((text) => text === 'Your reminder is set.')).toHaveLength(1);
    expect(chatCompletions(current)).toBe(2);
    expect(current.emulator.refusals()).toEqual([]);
  });

  it('refuses unsigned and forged callbacks and an op-13 challenge that is not of the documented shape, and runs nothing', async () => {
    scenario = await startQqScenario({ mode: 'webhook', allowFrom: alice });
    const current = scenario;
    const event = { op: 0, id: 'C2C_MESSAGE_CREATE:forged', t: 'C2C_MESSAGE_CREATE', d: { id: 'ROBOT1.0_forged', author: { user_openid: alice }, content: 'run rm -rf /', timestamp: new Date().toISOString() } };
    const timestamp = String(Math.floor(Date.now() / 1000));
    const key = platformKey(current.emulator.secret);
    const attackerKey = platformKey('not-the-bot-secret-at-all');
    const endpoint = current.callbackUrl;
    const unsigned = await pushCallback({ url: endpoint, key, appId: current.emulator.appId, timestamp, payload: event, forgedSignature: null });
    expect(unsigned.status).toBe(401);
    const forged = await pushCallback({ url: endpoint, key, appId: current.emulator.appId, timestamp, payload: event, forgedSignature: platformSign(attackerKey, timestamp, JSON.stringify(event)) });
    expect(forged.status).toBe(401);
    // A signed challenge whose plain_token reads as an event: answering it would sign a forged event for the attacker.
    const trap = await pushCallback({ url: endpoint, key, appId: current.emulator.appId, timestamp, payload: { op: 13, d: { plain_token: JSON.stringify(event), event_ts: timestamp } } });
    expect(trap.status).toBe(400);
    expect(trap.body).not.toContain('signature');
    await current.app().app.bus.idle();
    expect(chatCompletions(current)).toBe(0);
    expect(current.emulator.sentMessages()).toEqual([]);
  });

  it('reports a reply QQ no longer accepts as a failed delivery, and gives it with the next reply instead of dropping it', async () => {
    scenario = await startQqScenario({ mode: 'webhook', allowFrom: alice });
    const current = scenario;
    // The model takes longer than the reply window: QQ's clock passes the 60 minutes while it thinks.
    current.model.enqueue(() => {
      current.emulator.advance(61 * 60_000);
      return { text: 'the late answer' };
    });
    const slow = await current.emulator.userSends({ openid: alice, content: 'a slow question' });
    const refusal = await waitFor(() => current.emulator.refusals().find((candidate) => candidate.code === 304027), 'QQ refusing the expired reply');
    expect(refusal.chat).toBe(alice);
    const failed = await waitFor(() => current.deliveries.find((entry) => entry.event.type === 'reply' && entry.event.kind === 'final' && !entry.delivery.ok), 'the failed delivery');
    expect(failed.delivery).toMatchObject({ ok: false, retryable: false, error: expect.stringContaining('reply-window-closed') });
    expect(current.sentTexts().some((text) => text.includes('the late answer'))).toBe(false);

    current.model.enqueue({ text: 'the next answer' });
    const next = await current.emulator.userSends({ openid: alice, content: 'anything new?' });
    await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'the next answer'), 'the next answer');
    const held = current.emulator.sentMessages().find((message) => message.content.includes('the late answer'));
    expect(held).toMatchObject({ msgId: next.msgId });
    expect(held?.content).toContain('did not reach you: QQ accepts a reply only within 60 minutes');
    expect(slow.msgId).not.toBe(next.msgId);
  });

  it('after a restart over the same data folder, a callback QQ sends again is acknowledged and not answered twice', async () => {
    scenario = await startQqScenario({ mode: 'webhook', allowFrom: alice });
    const current = scenario;
    current.model.enqueue({ text: 'answered once' });
    const inbound = await current.emulator.userSends({ openid: alice, content: 'only once please' });
    await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'answered once'), 'the first answer');
    await current.app().app.bus.idle();

    await current.restart();
    // QQ did not see the acknowledgement (say) and posts the same event again to the new process.
    const again = { op: 0, id: inbound.eventId, t: 'C2C_MESSAGE_CREATE', d: { id: inbound.msgId, author: { user_openid: alice }, content: 'only once please', timestamp: new Date().toISOString() } };
    const redelivered = await pushCallback({ url: current.callbackUrl, key: platformKey(current.emulator.secret), appId: current.emulator.appId, timestamp: String(Math.floor(Date.now() / 1000)), payload: again });
    expect(redelivered.accepted).toBe(true);

    current.model.enqueue({ text: 'a new answer' });
    await current.emulator.userSends({ openid: alice, content: 'and a new message' });
    await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'a new answer'), 'the answer after the restart');
    await current.app().app.bus.idle();
    expect(current.sentTexts().filter((text) => text === 'answered once')).toHaveLength(1);
    expect(chatCompletions(current)).toBe(2);
  });
});
