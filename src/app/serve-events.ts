import type { AgentRuntime } from '../agent/create-agent-runtime.js';
import { EchoError } from '../errors/echo-error.js';
import type { InboundEvent } from '../events/inbound-event.js';
import type { Messages } from '../i18n/messages.js';
import type { Logger } from '../logging/create-logger.js';
import { traceContext } from '../logging/trace-context.js';
import type { Infrastructure } from './open-infrastructure.js';

/**
 * Subscribes the runtime to the bus: each event runs once its turn may start (after `turnsMayStart`), an event whose
 * answer already went out is completed unrun, and a failed one stays in the journal for the next sweep.
 */
export function serveEvents(input: {
  readonly infrastructure: Infrastructure;
  readonly runtime: AgentRuntime;
  readonly logger: Logger;
  readonly messagesFor: (channel: string) => Messages;
  /** Resolves once the MCP servers' first connection was tried: no early turn misses their tools. */
  readonly turnsMayStart: Promise<void>;
}): void {
  const { infrastructure, runtime, logger } = input;
  const { events, delivered, telemetry, outbox } = infrastructure;
  events.bus.subscribe(async (event) => {
    const started = performance.now();
    let failed = false;
    await input.turnsMayStart;
    try {
      // A re-run of an event whose answer went out before its process died: answered already, nothing to do.
      if (event.redelivered === true && event.type !== 'turn-resumed' && (await delivered.has(event.id))) {
        logger.info({ eventId: event.id, sessionKey: event.sessionKey }, 're-run of an event already answered; skipped');
        events.intake.complete(event);
        return;
      }
      await traceContext.run({ traceId: event.traceId, sessionKey: event.sessionKey }, () => runtime.handle(event));
    } catch (error) {
      failed = true;
      // The event stays in the journal (or its suspension in the store): a later sweep runs it again.
      events.intake.release(event);
      if (error instanceof EchoError && error.code.startsWith('store-')) await reportStoreFailure(event);
      throw error;
    } finally {
      telemetry.emitEventHandled({ type: event.type, channel: event.channel, durationMs: performance.now() - started, failed });
    }
    events.intake.complete(event);
  });

  /** Tells the person once, in their chat, that the store failed, and ends any webhook wait with that. */
  async function reportStoreFailure(event: InboundEvent): Promise<void> {
    if (event.unattended && event.type !== 'message-received') return;
    const text = input.messagesFor(event.channel).storeUnavailable;
    const target = { channel: event.channel, chatId: event.chatId, threadId: event.threadId, replyToMessageId: event.messageId };
    const delivery = await outbox.send({ type: 'reply', target, text, kind: 'final', causationId: event.id, failure: { kind: 'store-unavailable' } });
    telemetry.emitTurnFinished({ causationId: event.id, sessionKey: event.sessionKey, status: 'failed', text, delivery });
  }
}
