import { WebSocket } from 'undici';
import { z } from 'zod';
import type { AccessTokenClient } from './access-token-client.js';
import { fetchGatewayUrl } from './fetch-gateway-url.js';
import { type GatewayCloseAction, gatewayCloseAction } from './gateway-close-action.js';
import { type QqPayload, parsePayload, qqOpcodes } from './payload-schema.js';

/** The part of a WHATWG WebSocket the session uses (undici's in production, any in tests). */
export type GatewaySocket = {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { readonly code: number }) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
};

/** An event the gateway dispatched (op 0), other than READY and RESUMED. */
export type GatewayDispatch = { readonly type: string; readonly data: unknown; readonly id?: string; readonly seq?: number };

/** What the session needs. */
export type GatewaySessionOptions = {
  readonly apiRoot: string;
  readonly tokens: AccessTokenClient;
  readonly intents: number;
  readonly onDispatch: (dispatch: GatewayDispatch) => void;
  /** Connection changes and refusals, for the log. */
  readonly onNotice?: (notice: { readonly level: 'info' | 'warn' | 'error'; readonly message: string }) => void;
  readonly fetch?: typeof fetch;
  readonly connect?: (url: string) => GatewaySocket;
  /** The wait before reconnect attempt n (1, 2, ...). */
  readonly reconnectDelayMs?: (attempt: number) => number;
};

/** A running gateway connection: identified once, then resumed across reconnects. */
export type GatewaySession = {
  /** Connects and waits for READY, or for a failure that retrying cannot mend. */
  start(): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }>;
  stop(): void;
  /** The session id and last sequence number: what a resume sends. */
  snapshot(): { readonly sessionId?: string; readonly seq?: number; readonly connected: boolean };
};

const helloSchema = z.object({ heartbeat_interval: z.number().int().positive().max(600_000) });
const readySchema = z.object({ session_id: z.string().min(1).max(256) });
const ownClose = 4000;

/** Creates the websocket session of QQ's gateway: identify, heartbeat with the last `s`, resume, reconnect on op 7 and on close, identify again on op 9. */
export function createGatewaySession(options: GatewaySessionOptions): GatewaySession {
  const connect = options.connect ?? ((url: string) => new WebSocket(url) as unknown as GatewaySocket);
  const delayOf = options.reconnectDelayMs ?? ((attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1)));
  const notice = options.onNotice ?? (() => undefined);
  let sessionId: string | undefined;
  let seq: number | undefined;
  let socket: GatewaySocket | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let connected = false;
  let attempts = 0;
  let settleStart: ((result: { readonly ok: true } | { readonly ok: false; readonly message: string }) => void) | undefined;

  const settle = (result: { readonly ok: true } | { readonly ok: false; readonly message: string }) => {
    settleStart?.(result);
    settleStart = undefined;
  };

  const send = (target: GatewaySocket, payload: Record<string, unknown>) => {
    try {
      target.send(JSON.stringify(payload));
    } catch (error) {
      notice({ level: 'warn', message: `QQ gateway send failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  };

  const scheduleReconnect = () => {
    if (stopped) return;
    attempts += 1;
    reconnectTimer = setTimeout(() => void open(), delayOf(attempts));
  };

  const afterClose = (action: GatewayCloseAction, code: number) => {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = undefined;
    connected = false;
    socket = undefined;
    if (stopped) return;
    if (action === 'stop') {
      stopped = true;
      notice({ level: 'error', message: `QQ gateway closed with ${code}: retrying cannot help (see the QQ websocket error codes).` });
      settle({ ok: false, message: `QQ gateway closed with ${code}` });
      return;
    }
    if (action === 'identify') {
      sessionId = undefined;
      seq = undefined;
    }
    notice({ level: 'info', message: `QQ gateway closed (${code}); reconnecting to ${sessionId ? 'resume' : 'identify'}.` });
    scheduleReconnect();
  };

  const open = async () => {
    if (stopped) return;
    const gateway = await fetchGatewayUrl({ apiRoot: options.apiRoot, tokens: options.tokens, ...(options.fetch ? { fetch: options.fetch } : {}) });
    const token = await options.tokens.get();
    if (stopped) return;
    if (!gateway.ok || !token.ok) {
      const message = !gateway.ok ? gateway.message : token.ok ? '' : token.message;
      notice({ level: 'warn', message });
      if (!token.ok && token.code === 'credentials-refused') {
        stopped = true;
        settle({ ok: false, message });
        return;
      }
      scheduleReconnect();
      return;
    }
    const current = connect(gateway.url);
    socket = current;
    let awaitingAck = false;
    // Set by op 7 / op 9 / a missed ack before this side closes: the close code is then ours, not the server's.
    let plannedAction: GatewayCloseAction | undefined;
    const closeAnd = (action: GatewayCloseAction) => {
      plannedAction = action;
      current.close(ownClose);
    };
    current.addEventListener('error', () => undefined);
    current.addEventListener('close', (event) => afterClose(plannedAction ?? gatewayCloseAction(event.code), event.code));
    current.addEventListener('message', (event) => {
      const parsed = typeof event.data === 'string' ? parsePayload(event.data) : undefined;
      if (!parsed?.ok) return notice({ level: 'warn', message: 'QQ gateway sent a frame that is not a payload; ignored.' });
      const payload: QqPayload = parsed.payload;
      if (payload.op === qqOpcodes.hello) {
        const hello = helloSchema.safeParse(payload.d);
        if (!hello.success) return closeAnd('resume');
        heartbeat = setInterval(() => {
          // No ack since the last beat: the connection is a zombie; reconnect and resume.
          if (awaitingAck) return closeAnd('resume');
          awaitingAck = true;
          send(current, { op: qqOpcodes.heartbeat, d: seq ?? null });
        }, hello.data.heartbeat_interval);
        const auth = `QQBot ${token.token.value}`;
        if (sessionId !== undefined && seq !== undefined) send(current, { op: qqOpcodes.resume, d: { token: auth, session_id: sessionId, seq } });
        else send(current, { op: qqOpcodes.identify, d: { token: auth, intents: options.intents, shard: [0, 1], properties: {} } });
        return;
      }
      if (payload.op === qqOpcodes.heartbeatAck) {
        awaitingAck = false;
        return;
      }
      if (payload.op === qqOpcodes.heartbeat) return send(current, { op: qqOpcodes.heartbeat, d: seq ?? null });
      if (payload.op === qqOpcodes.reconnect) return closeAnd('resume');
      if (payload.op === qqOpcodes.invalidSession) return closeAnd('identify');
      if (payload.op !== qqOpcodes.dispatch) return;
      if (payload.s !== undefined) seq = payload.s;
      if (payload.t === 'READY') {
        const ready = readySchema.safeParse(payload.d);
        if (!ready.success) return closeAnd('identify');
        sessionId = ready.data.session_id;
        connected = true;
        attempts = 0;
        notice({ level: 'info', message: 'QQ gateway ready.' });
        return settle({ ok: true });
      }
      if (payload.t === 'RESUMED') {
        connected = true;
        attempts = 0;
        return notice({ level: 'info', message: 'QQ gateway session resumed.' });
      }
      if (payload.t !== undefined) options.onDispatch({ type: payload.t, data: payload.d, ...(payload.id === undefined ? {} : { id: payload.id }), ...(payload.s === undefined ? {} : { seq: payload.s }) });
    });
  };

  return {
    start() {
      stopped = false;
      const started = new Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }>((resolve) => {
        settleStart = resolve;
      });
      void open();
      return started;
    },
    stop() {
      stopped = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (heartbeat) clearInterval(heartbeat);
      socket?.close(1000);
      settle({ ok: false, message: 'stopped' });
    },
    snapshot: () => ({ ...(sessionId === undefined ? {} : { sessionId }), ...(seq === undefined ? {} : { seq }), connected }),
  };
}
