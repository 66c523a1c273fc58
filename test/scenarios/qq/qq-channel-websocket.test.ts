import { afterEach, describe, expect, it } from 'vitest';
import { type QqScenario, startQqScenario } from '../../fakes/qq/qq-scenario.js';
import { waitFor } from '../../fakes/start-test-app.js';

const alice = 'E4F4AEA33253A2797FB897C50B81D7ED';

describe('the QQ channel in websocket mode, against the emulated gateway', () => {
  let scenario: QqScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('identifies, heartbeats, answers a message, and after the socket drops resumes and gets the event sent meanwhile', async () => {
    scenario = await startQqScenario({ mode: 'websocket', allowFrom: alice, heartbeatIntervalMs: 100 });
    const current = scenario;
    const { counts } = current.emulator.gateway;
    await waitFor(() => counts.identifies === 1 && current.app().app.startupLines.find((line) => line.startsWith('qq:')), 'the identify');
    expect(current.app().app.startupLines.find((line) => line.startsWith('qq:'))).toMatch(/^qq: on \(websocket via 127\.0\.0\.1:\d+, 1 allowed user\)$/);
    await waitFor(() => counts.heartbeats >= 2, 'two heartbeats');
    // The heartbeat carries the last sequence number seen (READY was 1).
    expect(counts.lastHeartbeatSeq).toBe(1);

    current.model.enqueue({ text: 'over the socket' });
    const first = await current.emulator.userSends({ openid: alice, content: 'hello over the socket' });
    expect(first.sessionsReached).toBe(1);
    const reply = await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'over the socket'), 'the answer');
    expect(reply).toMatchObject({ scene: 'c2c', chat: alice, msgId: first.msgId, msgSeq: 1 });

    current.emulator.gateway.dropConnections();
    // Sent while the bot is away: the session keeps it, and a resume replays it.
    current.model.enqueue({ text: 'after the resume' });
    const meanwhile = await current.emulator.userSends({ openid: alice, content: 'sent while you were away' });
    await waitFor(() => counts.resumes === 1, 'the resume');
    const resumed = await waitFor(() => current.emulator.sentMessages().find((message) => message.content === 'after the resume'), 'the answer to the replayed event');
    expect(resumed.msgId).toBe(meanwhile.msgId);
    expect(counts.identifies).toBe(1);
    await current.app().app.bus.idle();
    expect(current.model.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);
    expect(current.app().app.channels.get('qq')?.status()).toEqual({ state: 'running', detail: 'websocket gateway connected' });
  });
});
