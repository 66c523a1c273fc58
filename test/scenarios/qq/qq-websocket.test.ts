import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokenClient } from '../../../channels/qq/access-token-client.js';
import { createGatewaySession, type GatewayDispatch, type GatewaySession } from '../../../channels/qq/gateway-session.js';
import { qqIntents } from '../../../channels/qq/intents.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { type QqBotApiEmulator, startQqBotApiEmulator } from '../../fakes/qq/qq-bot-api-emulator.js';

let emulator: QqBotApiEmulator;
let session: GatewaySession | undefined;
let dispatches: GatewayDispatch[];
let notices: string[];

beforeEach(async () => {
  emulator = await startQqBotApiEmulator({ heartbeatIntervalMs: 150 });
  dispatches = [];
  notices = [];
});
afterEach(async () => {
  session?.stop();
  session = undefined;
  await emulator.stop();
});

function startSession(secret = emulator.secret) {
  session = createGatewaySession({
    apiRoot: emulator.apiRoot,
    tokens: createAccessTokenClient({ appId: emulator.appId, clientSecret: secret, tokenRoot: emulator.apiRoot }),
    intents: qqIntents.groupAndC2cEvent,
    onDispatch: (dispatch) => dispatches.push(dispatch),
    onNotice: (notice) => notices.push(`${notice.level}: ${notice.message}`),
    reconnectDelayMs: () => 20,
  });
  return session.start();
}

const contents = () => dispatches.map((dispatch) => (dispatch.data as { content: string }).content.trim());

describe('QQ websocket gateway against the emulator', () => {
  it('identifies with the QQBot token, receives READY and dispatches, and heartbeats with the last s', async () => {
    expect(await startSession()).toEqual({ ok: true });
    expect(emulator.gateway.counts.identifies).toBe(1);
    await emulator.userSends({ openid: 'U1', content: 'one' });
    await emulator.memberMentionsBot({ groupOpenid: 'G1', memberOpenid: 'M1', content: 'two' });
    await waitFor(() => dispatches.length === 2, 'two dispatches');
    expect(dispatches.map((dispatch) => dispatch.type)).toEqual(['C2C_MESSAGE_CREATE', 'GROUP_AT_MESSAGE_CREATE']);
    expect(dispatches.map((dispatch) => dispatch.seq)).toEqual([2, 3]);
    await waitFor(() => emulator.gateway.counts.lastHeartbeatSeq === 3, 'a heartbeat carrying s = 3');
  });

  it('resumes after the connection drops and gets the events it missed, once each', async () => {
    await startSession();
    await emulator.userSends({ openid: 'U1', content: 'before' });
    await waitFor(() => dispatches.length === 1, 'the first dispatch');
    emulator.gateway.dropConnections();
    await waitFor(() => emulator.gateway.openConnections() === 0, 'the connection to drop');
    await emulator.userSends({ openid: 'U1', content: 'while away 1' });
    await emulator.userSends({ openid: 'U1', content: 'while away 2' });
    await waitFor(() => dispatches.length === 3, 'the missed events');
    expect(contents()).toEqual(['before', 'while away 1', 'while away 2']);
    expect(emulator.gateway.counts).toMatchObject({ identifies: 1, resumes: 1 });
    expect(session?.snapshot()).toMatchObject({ connected: true, sessionId: emulator.gateway.sessionIds()[0] });
  });

  it('reconnects and resumes when the server sends op 7', async () => {
    await startSession();
    emulator.gateway.requestReconnect();
    await waitFor(() => emulator.gateway.counts.resumes === 1, 'a resume');
    await emulator.userSends({ openid: 'U1', content: 'after reconnect' });
    await waitFor(() => dispatches.length === 1, 'a dispatch on the new connection');
    expect(emulator.gateway.counts.identifies).toBe(1);
  });

  it('identifies again after op 9 (invalid session)', async () => {
    await startSession();
    const first = session?.snapshot().sessionId;
    emulator.gateway.invalidateSessions();
    await waitFor(() => emulator.gateway.counts.identifies === 2, 'a second identify');
    await waitFor(() => session?.snapshot().connected && session.snapshot().sessionId !== first, 'a new session');
    await emulator.userSends({ openid: 'U1', content: 'new session' });
    await waitFor(() => dispatches.length === 1, 'a dispatch in the new session');
  });

  it('treats a connection whose heartbeats go unacknowledged as dead, and resumes on a new one', async () => {
    await startSession();
    emulator.gateway.setHeartbeatAcks(false);
    await waitFor(() => emulator.gateway.counts.resumes === 1, 'a resume after missed acks');
    emulator.gateway.setHeartbeatAcks(true);
    expect(emulator.gateway.counts.identifies).toBe(1);
  });

  it('stops, and says why, when the gateway closes with a code retrying cannot mend (4914: bot taken down)', async () => {
    await startSession();
    emulator.gateway.closeWith(4914);
    await waitFor(() => notices.some((notice) => notice.startsWith('error:') && notice.includes('4914')), 'the error notice');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(emulator.gateway.openConnections()).toBe(0);
    expect(emulator.gateway.counts.identifies).toBe(1);
  });

  it('fails to start, as a value, with a refused secret', async () => {
    expect(await startSession('wrong-secret')).toMatchObject({ ok: false });
    expect(emulator.gateway.counts.identifies).toBe(0);
  });
});
