import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

/** One gateway session: its events in order, kept for resume. */
type Session = { readonly id: string; readonly intents: number; seq: number; readonly log: { readonly s: number; readonly frame: string }[] };
type Connection = { readonly socket: WebSocket; session?: Session; lastBeat: number; watchdog?: ReturnType<typeof setInterval> };

/** What the emulated websocket gateway saw, for assertions. */
export type GatewayCounts = { identifies: number; resumes: number; heartbeats: number; lastHeartbeatSeq: number | null | undefined; refusedIdentifies: number };

/** The websocket half of the QQ emulator (event-emit.md, "WebSocket方式"). */
export type EmulatedGateway = {
  readonly counts: GatewayCounts;
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Sends an event to the sessions whose intents include `intent`; kept in the session log for a resume. Returns how many sessions took it. */
  dispatch(type: string, data: unknown, intent: number, eventId: string): number;
  /** op 7: the server asks clients to reconnect (and resume). */
  requestReconnect(): void;
  /** op 9 on every connection, and the sessions forgotten: clients must identify again. */
  invalidateSessions(): void;
  /** Cuts every connection without a close frame (the client sees 1006). */
  dropConnections(): void;
  /** Stops answering heartbeats with op 11 (a half-dead connection), or starts again. */
  setHeartbeatAcks(on: boolean): void;
  /** Closes every connection with a gateway error code (error-trace/websocket.md). */
  closeWith(code: number): void;
  openConnections(): number;
  sessionIds(): string[];
  stop(): Promise<void>;
};

/** Creates the gateway; `isValidToken` checks the `QQBot <token>` of identify and resume. */
export function createEmulatedGateway(options: { readonly heartbeatIntervalMs: number; readonly isValidToken: (authorization: unknown) => boolean; readonly botUser: { readonly id: string; readonly username: string } }): EmulatedGateway {
  const server = new WebSocketServer({ noServer: true });
  const sessions = new Map<string, Session>();
  const connections = new Set<Connection>();
  let acksHeartbeats = true;
  const counts: GatewayCounts = { identifies: 0, resumes: 0, heartbeats: 0, lastHeartbeatSeq: undefined, refusedIdentifies: 0 };

  const send = (connection: Connection, payload: Record<string, unknown>) => connection.socket.send(JSON.stringify(payload));
  const append = (session: Session, payload: Record<string, unknown>): string => {
    session.seq += 1;
    const frame = JSON.stringify({ ...payload, s: session.seq });
    session.log.push({ s: session.seq, frame });
    return frame;
  };

  const onFrame = (connection: Connection, text: string) => {
    let payload: { op?: unknown; d?: Record<string, unknown> | number | null };
    try {
      payload = JSON.parse(text);
    } catch {
      return connection.socket.close(4002, 'invalid payload');
    }
    const d = typeof payload.d === 'object' && payload.d !== null ? payload.d : {};
    if (payload.op === 1) {
      counts.heartbeats += 1;
      counts.lastHeartbeatSeq = payload.d as number | null;
      connection.lastBeat = Date.now();
      if (acksHeartbeats) send(connection, { op: 11 });
      return;
    }
    if (payload.op === 2) {
      if (!options.isValidToken(d.token)) {
        counts.refusedIdentifies += 1;
        // The docs name no code for a refused token; 4004 is what Discord-style gateways use.
        return connection.socket.close(4004, 'authentication failed');
      }
      const shard = d.shard;
      if (!Array.isArray(shard) || shard.length !== 2 || shard[0] !== 0 || shard[1] !== 1) return connection.socket.close(4010, 'invalid shard');
      if (typeof d.intents !== 'number') return connection.socket.close(4013, 'invalid intent');
      counts.identifies += 1;
      const session: Session = { id: randomUUID(), intents: d.intents, seq: 0, log: [] };
      sessions.set(session.id, session);
      connection.session = session;
      connection.socket.send(append(session, { op: 0, t: 'READY', d: { version: 1, session_id: session.id, user: { ...options.botUser, bot: true }, shard: [0, 1] } }));
      return;
    }
    if (payload.op === 6) {
      const session = typeof d.session_id === 'string' ? sessions.get(d.session_id) : undefined;
      if (!options.isValidToken(d.token) || !session || typeof d.seq !== 'number' || d.seq > session.seq) return send(connection, { op: 9, d: false });
      counts.resumes += 1;
      connection.session = session;
      for (const entry of session.log) if (entry.s > d.seq) connection.socket.send(entry.frame);
      connection.socket.send(append(session, { op: 0, t: 'RESUMED', d: '' }));
      return;
    }
    connection.socket.close(4001, 'invalid opcode');
  };

  return {
    counts,
    handleUpgrade(request, socket, head) {
      server.handleUpgrade(request, socket, head, (ws) => {
        const connection: Connection = { socket: ws, lastBeat: Date.now() };
        connections.add(connection);
        // A client that stops beating is cut off with 4009 (connection expired: resume), after a generous grace.
        connection.watchdog = setInterval(() => {
          if (Date.now() - connection.lastBeat > options.heartbeatIntervalMs * 3) ws.close(4009, 'connection expired');
        }, options.heartbeatIntervalMs);
        ws.on('message', (data) => onFrame(connection, data.toString('utf8')));
        ws.on('close', () => {
          clearInterval(connection.watchdog);
          connections.delete(connection);
        });
        ws.on('error', () => undefined);
        send(connection, { op: 10, d: { heartbeat_interval: options.heartbeatIntervalMs } });
      });
    },
    dispatch(type, data, intent, eventId) {
      let taken = 0;
      for (const session of sessions.values()) {
        if ((session.intents & intent) === 0) continue;
        const frame = append(session, { op: 0, id: eventId, t: type, d: data });
        taken += 1;
        for (const connection of connections) if (connection.session === session) connection.socket.send(frame);
      }
      return taken;
    },
    requestReconnect: () => {
      for (const connection of connections) send(connection, { op: 7 });
    },
    invalidateSessions: () => {
      sessions.clear();
      for (const connection of connections) send(connection, { op: 9, d: false });
    },
    dropConnections: () => {
      for (const connection of connections) connection.socket.terminate();
    },
    setHeartbeatAcks: (on) => {
      acksHeartbeats = on;
    },
    closeWith: (code) => {
      for (const connection of connections) connection.socket.close(code, 'emulated');
    },
    openConnections: () => connections.size,
    sessionIds: () => [...sessions.keys()],
    stop: async () => {
      for (const connection of connections) connection.socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
