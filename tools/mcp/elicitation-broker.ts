import { canonicalJson } from '../../src/registry/canonical-json.js';
import type { AuditEntry } from '../../src/registry/audit-log.js';
import type { ElicitationAnswer, ElicitationForm } from '../../src/registry/elicitation.js';
import { createShortId } from '../../src/events/create-id.js';
import type { Logger } from '../../src/logging/create-logger.js';
import type { ToolOutcome } from '../../src/registry/tool-outcome.js';

/** What the broker knows of the turn a call serves (from its ToolContext). */
export type McpCallContext = {
  readonly traceId: string;
  readonly sessionKey: string;
  readonly userId: string;
  readonly channel: string;
  readonly unattended: boolean;
  /** The risk of the tool (from config). */
  readonly risk: string;
  readonly tool: string;
  /** Posts a line to the chat the turn answers in (URL-mode elicitation). */
  sendMessage(text: string): Promise<unknown>;
};

/** What `elicitation/create` carries, as far as the broker reads it. */
export type ElicitationRequestParams = {
  readonly mode?: 'form' | 'url';
  readonly message: string;
  readonly requestedSchema?: Readonly<Record<string, unknown>>;
  readonly url?: string;
};

/** What goes back to the server. */
export type ElicitationResponse = { readonly action: 'accept' | 'decline' | 'cancel'; readonly content?: Record<string, unknown> };

/** One tool call under way on the connection. */
type InFlightCall = {
  context: McpCallContext;
  /** A re-issued call after a restart: a request with this fingerprint is answered from the stored answer, once. */
  prepared?: ElicitationAnswer;
  /** A request of the server waiting for a person (the turn is suspended on it). */
  waiting?: { readonly form: ElicitationForm; respond(response: ElicitationResponse): void };
  /** The current waiter's "suspend now". */
  onElicitation?: (form: ElicitationForm) => void;
  outcome?: Promise<ToolOutcome>;
  readonly controller: AbortController;
  liveTimer?: NodeJS.Timeout;
};

/** Starts the call on the server under the broker's abort signal. */
export type StartCall = (signal: AbortSignal) => Promise<ToolOutcome>;

/**
 * Ties a server's `elicitation/create` requests to the tool call they belong to, suspends that call's turn while a
 * person answers, and answers the server: live (the request still waits, same process) or, after a restart, from
 * the stored answer when the server asks the same thing again of the re-issued call.
 */
export type ElicitationBroker = {
  /** The SDK's handler for `elicitation/create`. */
  handle(params: ElicitationRequestParams): Promise<ElicitationResponse>;
  /**
   * Runs a call: its result, or an `awaitElicitation` outcome as soon as the server asks the person something. With
   * an answer, a call still waiting in this process gets it; otherwise the call is started again with the answer
   * ready for the server's repeated request.
   */
  run(input: { readonly context: McpCallContext; readonly signal: AbortSignal; readonly answer?: ElicitationAnswer; readonly start: StartCall }): Promise<ToolOutcome>;
  /** Cancels every waiting request (the connection closes). */
  close(): void;
};

/** Creates the broker of one server connection. */
export function createElicitationBroker(options: {
  readonly server: string;
  readonly audit: (entry: AuditEntry) => void;
  readonly logger: Logger;
  /** How long a suspended call keeps waiting on the server for the person's answer (then the answer re-issues it). */
  readonly liveWaitMs: number;
}): ElicitationBroker {
  const { server } = options;
  const inFlight = new Set<InFlightCall>();

  const audit = (context: McpCallContext, kind: AuditEntry['kind'], outcome: string, extra: Partial<AuditEntry> = {}) =>
    options.audit({ kind, traceId: context.traceId, sessionKey: context.sessionKey, userId: context.userId, channel: context.channel, tool: context.tool, server, outcome, ...extra });

  const answerWith = (call: InFlightCall, response: ElicitationResponse, how: string) => {
    audit(call.context, 'elicitation-answered', response.action, { reason: how, ...(response.content === undefined ? {} : { arguments: response.content }) });
    return response;
  };

  /**
   * Stops a call: the call is cancelled first (the server is told `notifications/cancelled` and drops it), then a
   * request still waiting on a person is answered `cancel` so nothing is left hanging. A later answer re-issues the call.
   */
  const abandon = (call: InFlightCall, why: string) => {
    clearTimeout(call.liveTimer);
    options.logger.debug({ mcpServer: server, why }, 'MCP call stopped');
    call.controller.abort(new Error(why));
    call.waiting?.respond({ action: 'cancel' });
    call.waiting = undefined;
  };

  function awaitCall(call: InFlightCall, signal: AbortSignal): Promise<ToolOutcome> {
    return new Promise<ToolOutcome>((resolve) => {
      // The turn ran out of time while the call runs: the call is stopped with it.
      const onAbort = () => abandon(call, 'the turn stopped');
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      const detach = () => {
        signal.removeEventListener('abort', onAbort);
        call.onElicitation = undefined;
      };
      call.onElicitation = (form) => {
        detach();
        // From here the call outlives the turn's tool timeout: it waits for the person, up to the live window.
        call.liveTimer = setTimeout(() => abandon(call, 'nobody answered within the live window'), options.liveWaitMs);
        call.liveTimer.unref();
        resolve({ ok: true, output: `Waiting for the person to answer the MCP server "${server}".`, awaitElicitation: form });
      };
      void call.outcome?.then((outcome) => {
        detach();
        resolve(outcome);
      });
    });
  }

  return {
    async handle(params) {
      // The request names no call: it is the one call under way that is not already waiting on a person.
      const candidates = [...inFlight].filter((call) => call.waiting === undefined && call.onElicitation !== undefined);
      const [call] = candidates;
      if (candidates.length !== 1 || call === undefined) {
        options.logger.warn({ mcpServer: server, calls: candidates.length }, 'MCP elicitation declined: it cannot be tied to one call');
        options.audit({ kind: 'elicitation-answered', server, outcome: 'decline', reason: `${candidates.length} calls under way: cannot tell which asked` });
        return { action: 'decline' };
      }
      const { context } = call;
      const mode = params.mode ?? 'form';
      audit(context, 'elicitation-requested', mode, { arguments: mode === 'url' ? { message: params.message, url: params.url } : { message: params.message, requestedSchema: params.requestedSchema } });
      if (context.unattended) return answerWith(call, { action: 'decline' }, 'unattended turn: nobody is there to answer');
      if (mode === 'url') {
        // The link is shown with the server's name; nothing else is asked. The server learns the outcome out of band.
        await context.sendMessage(`The MCP server "${server}" asks you to open this link: ${params.url ?? ''}\n${params.message}`);
        return answerWith(call, { action: 'accept' }, 'link shown in the chat');
      }
      const requestedSchema = params.requestedSchema ?? { type: 'object', properties: {} };
      const fingerprint = canonicalJson({ message: params.message, requestedSchema });
      const prepared = call.prepared;
      if (prepared?.fingerprint === fingerprint) {
        call.prepared = undefined;
        return answerWith(call, toResponse(prepared), 'stored answer, the call re-issued after a restart');
      }
      const form: ElicitationForm = { elicitationId: createShortId(), server, message: params.message, requestedSchema, fingerprint, risk: context.risk };
      return new Promise<ElicitationResponse>((resolve) => {
        call.waiting = {
          form,
          respond: (response) => {
            call.waiting = undefined;
            clearTimeout(call.liveTimer);
            resolve(answerWith(call, response, 'the person answered in the chat'));
          },
        };
        call.onElicitation?.(form);
      });
    },

    async run(input) {
      const { answer } = input;
      if (answer !== undefined) {
        const live = [...inFlight].find((call) => call.waiting?.form.elicitationId === answer.elicitationId);
        if (live?.waiting) {
          live.context = input.context;
          const waiting = live.waiting;
          const result = awaitCall(live, input.signal);
          waiting.respond(toResponse(answer));
          return result;
        }
      }
      const call: InFlightCall = { context: input.context, controller: new AbortController(), ...(answer === undefined ? {} : { prepared: answer }) };
      inFlight.add(call);
      call.outcome = input.start(call.controller.signal).finally(() => {
        clearTimeout(call.liveTimer);
        inFlight.delete(call);
      });
      return awaitCall(call, input.signal);
    },

    close() {
      for (const call of inFlight) abandon(call, 'the connection closed');
    },
  };
}

function toResponse(answer: ElicitationAnswer): ElicitationResponse {
  return answer.action === 'accept' ? { action: 'accept', content: { ...(answer.content ?? {}) } } : { action: answer.action };
}
