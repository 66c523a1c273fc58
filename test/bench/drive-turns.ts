import { randomUUID } from 'node:crypto';
import type { App } from '../../src/app/create-app.js';
import type { MessageReceived } from '../../src/events/inbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';

/** What a load run measured. */
export type TurnLoadResult = {
  readonly turns: number;
  readonly elapsedMs: number;
  /** Publish to final reply, one per turn, in milliseconds. */
  readonly latenciesMs: readonly number[];
  /** Turns that did not complete (failed, refused, suspended). */
  readonly notCompleted: number;
};

/** A user message as a chat channel would publish it. */
export function createMessageEvent(chatId: string, text: string): MessageReceived {
  return {
    type: 'message-received',
    id: randomUUID(),
    traceId: randomUUID(),
    at: new Date().toISOString(),
    channel: 'telegram',
    chatId,
    sessionKey: createSessionKey({ channel: 'telegram', chatId }),
    origin: 'user',
    unattended: false,
    sender: { id: chatId, displayName: `user ${chatId}` },
    text,
    media: [],
    isGroup: false,
    mentioned: false,
  };
}

type Accepted = { readonly accepted: true } | { readonly accepted: false; readonly reason: string };

/**
 * How a turn enters the app: `app.accept` (the durable intake) where the app has it, else `app.bus.publish`,
 * the intake of trees before issue 12 (`--against` an older ref builds this harness against that tree).
 */
export function intakeOf(app: App): { readonly accept: (event: MessageReceived) => Promise<Accepted>; readonly durable: boolean } {
  const parts = app as unknown as { accept?: (event: MessageReceived) => Promise<Accepted>; bus: { publish(event: MessageReceived): Accepted } };
  const accept = parts.accept;
  if (typeof accept === 'function') return { accept: (event) => accept.call(app, event), durable: true };
  return { accept: async (event) => parts.bus.publish(event), durable: false };
}

/** Hands turns in through `app.accept` (see `intakeOf`) and times each from publish to the turn-finished signal (the final reply has gone to the outbox). */
function createTurnTimer(app: App) {
  const intake = intakeOf(app);
  const waiting = new Map<string, (status: string) => void>();
  const unsubscribe = app.telemetry.onTurnFinished((report) => {
    const settle = waiting.get(report.causationId);
    if (settle) {
      waiting.delete(report.causationId);
      settle(report.status);
    }
  });
  const latenciesMs: number[] = [];
  let notCompleted = 0;
  return {
    latenciesMs,
    notCompleted: () => notCompleted,
    close: unsubscribe,
    async turn(chatId: string, text: string): Promise<void> {
      const event = createMessageEvent(chatId, text);
      const finished = new Promise<string>((resolve) => waiting.set(event.id, resolve));
      const started = performance.now();
      for (;;) {
        // Through the durable intake, as a channel hands events in: the journal's cost is part of the figure.
        const result = await intake.accept(event);
        if (result.accepted) break;
        if (result.reason !== 'busy') throw new Error(`the event was refused (${result.reason})`);
        // Full: try again in a moment, as a user told "busy" would.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const status = await finished;
      latenciesMs.push(performance.now() - started);
      if (status !== 'completed') notCompleted += 1;
    },
  };
}

/**
 * Closed loop: `concurrency` turns in flight, each new one as soon as one ends, spread round-robin
 * over `sessions` sessions; new turns start until `durationMs` has passed or `maxTurns` have started.
 */
export async function driveClosedLoop(app: App, load: { readonly sessions: number; readonly concurrency: number; readonly durationMs: number; readonly maxTurns: number; readonly chatPrefix: string }): Promise<TurnLoadResult> {
  const timer = createTurnTimer(app);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < load.maxTurns && performance.now() - started < load.durationMs) {
      const index = next;
      next += 1;
      await timer.turn(`${load.chatPrefix}${index % load.sessions}`, `buy milk ${index}`);
    }
  };
  await Promise.all(Array.from({ length: load.concurrency }, worker));
  const elapsedMs = performance.now() - started;
  timer.close();
  return { turns: timer.latenciesMs.length, elapsedMs, latenciesMs: timer.latenciesMs, notCompleted: timer.notCompleted() };
}

/** Open loop: turns arrive at `turnsPerSecond` whatever the answers do, spread round-robin over `sessions` sessions, for `durationMs`. */
export async function driveOpenLoop(app: App, load: { readonly sessions: number; readonly turnsPerSecond: number; readonly durationMs: number; readonly chatPrefix: string }): Promise<TurnLoadResult> {
  const timer = createTurnTimer(app);
  const total = Math.max(1, Math.round((load.turnsPerSecond * load.durationMs) / 1000));
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * load.turnsPerSecond) / 1000) + 1);
    for (; sent < due; sent += 1) inFlight.push(timer.turn(`${load.chatPrefix}${sent % load.sessions}`, `buy milk ${sent}`));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  const elapsedMs = performance.now() - started;
  timer.close();
  return { turns: total, elapsedMs, latenciesMs: timer.latenciesMs, notCompleted: timer.notCompleted() };
}
