import { PassThrough } from 'node:stream';
import type { Emit, EmitResult } from '../../src/events/channel.js';
import { createId } from '../../src/events/create-id.js';
import type { TurnFailure } from '../../src/events/turn-failure.js';
import type { HttpRequest, HttpResponse, HttpRoute } from '../../src/gateway/http-route.js';
import type { Logger } from '../../src/logging/create-logger.js';
import { apiError } from './api-error.js';
import type { ApiKeyring } from './api-keyring.js';
import { createAppendOnlyText } from './append-only-text.js';
import { parseChatRequest } from './chat-request.js';
import { type CompletionHeader, completionChunk, completionObject, type EchoExtras, sseData } from './completion-objects.js';
import { conversationOf } from './conversation-of.js';
import type { LateAnswers } from './late-answers.js';
import type { PendingAnswers } from './pending-answers.js';
import type { OpenaiApiStrings } from './openai-api-strings.js';
import { renderAnswer } from './render-answer.js';
import { requestToEvent } from './to-event.js';

/** The path chat completions arrive on. */
export const completionsPath = '/v1/chat/completions';

/** How often a stream that waits says it is alive (a comment line proxies and clients ignore). */
const keepAliveMs = 15_000;

/** What POST /v1/chat/completions is built from. */
export type CompletionsRouteOptions = {
  readonly channel: string;
  readonly keyring: ApiKeyring;
  readonly modelId: string;
  readonly bodyLimitBytes: number;
  readonly waitTimeoutMs: number;
  readonly pending: PendingAnswers;
  readonly lateAnswers: LateAnswers;
  readonly strings: OpenaiApiStrings;
  /** The bus intake, once the channel has started. */
  readonly emit: () => Emit | undefined;
  readonly now: () => Date;
  readonly logger: Logger;
};

/**
 * POST /v1/chat/completions, in order: bearer key (401) → JSON body within the limit (415, 413, 400) → shape (400) →
 * the conversation (the key's user + `X-Session-Id` or `user`) → the last user message queued as a turn through the
 * durable intake (503) → the answer on the same request: one `chat.completion`, or SSE chunks then `[DONE]`.
 * Answers no request received (a client that left) come first in the conversation's next answer.
 */
export function createCompletionsRoute(options: CompletionsRouteOptions): HttpRoute {
  return { method: 'POST', path: completionsPath, bodyLimitBytes: options.bodyLimitBytes, handle };

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const key = options.keyring.check(request.headers.authorization);
    if (!key.ok) {
      return apiError(401, 'authentication_error', 'invalid_api_key', key.reason === 'missing' ? 'Send Authorization: Bearer <API key>.' : 'The API key is not valid.', { 'WWW-Authenticate': 'Bearer' });
    }
    const read = await request.readJson();
    if (!read.ok) return apiError(read.status, 'invalid_request_error', read.code, read.message);
    const parsed = parseChatRequest(read.body);
    if (!parsed.ok) return apiError(400, 'invalid_request_error', 'invalid_request', parsed.message);
    const chat = parsed.request;
    const chatId = conversationOf({ userId: key.userId, sessionHeader: request.headers['x-session-id'], user: chat.user, firstMessageDigest: chat.firstMessageDigest });
    if (chatId === undefined) return apiError(400, 'invalid_request_error', 'invalid_conversation', 'X-Session-Id and user may hold letters, digits and _ . : @ - only (at most 128).');

    const runId = createId();
    const header: CompletionHeader = { id: `chatcmpl-${runId}`, model: options.modelId, created: Math.floor(options.now().getTime() / 1000) };
    const conversation = chatId.slice(chatId.indexOf('/') + 1);
    const stream = chat.stream ? new PassThrough() : undefined;
    // koa destroys the body stream when the client leaves; later writes are dropped, not errors.
    stream?.on('error', () => undefined);
    const send = (data: string) => {
      if (stream && !stream.destroyed && !stream.writableEnded) stream.write(data);
    };
    const text = createAppendOnlyText();
    const write = (pieces: readonly string[]) => {
      for (const piece of pieces) send(sseData(completionChunk(header, { content: piece })));
    };
    const waiting = options.pending.open({
      runId,
      chatId,
      timeoutMs: options.waitTimeoutMs,
      ...(stream ? { onInterim: (interim) => write(interim.kind === 'draft' ? text.draft(interim.text) : text.message(interim.text)) } : {}),
    });
    const emit = options.emit();
    const emitted: EmitResult = emit ? await emit(requestToEvent({ channel: options.channel, runId, chatId, userId: key.userId, text: chat.input, now: options.now() })) : { accepted: false, reason: 'closed' };
    if (!emitted.accepted) {
      options.pending.close(runId);
      const message = emitted.reason === 'unavailable' ? "The message could not be recorded: the agent's storage is not answering. Nothing was run; retry later." : emitted.reason === 'busy' ? 'The agent is busy; retry in a moment.' : 'The agent is shutting down; retry later.';
      return apiError(503, 'server_error', emitted.reason === 'unavailable' ? 'store_unavailable' : 'busy', message, { 'Retry-After': '5' });
    }
    options.logger.info({ runId, userId: key.userId, stream: chat.stream }, 'chat completion accepted');
    // A client that leaves does not lose the turn: its answer is kept for the conversation's next request.
    request.closed.addEventListener('abort', () => options.pending.close(runId), { once: true });

    if (!stream) {
      const answer = await waiting.answered;
      const late = await takeLate(chatId);
      const failure = answer.kind === 'reply' ? answer.failure : undefined;
      const rendered = renderAnswer(answer, options.strings);
      const extras: EchoExtras = { conversation, ...(rendered.approval ? { approval: rendered.approval } : {}) };
      if (failure) return failureError(failure, rendered.content, options.now());
      return { status: 200, body: completionObject(header, [...late, ...waiting.messages, rendered.content].join('\n\n'), extras) };
    }

    send(sseData(completionChunk(header, { role: 'assistant', content: '' })));
    const keepAlive = setInterval(() => send(': waiting\n\n'), keepAliveMs);
    void (async () => {
      try {
        const late = await takeLate(chatId);
        if (late.length > 0) write(text.message(late.join('\n\n')));
        const answer = await waiting.answered;
        const rendered = renderAnswer(answer, options.strings);
        if (answer.kind === 'reply' && answer.failure) {
          write(text.message(answer.text));
          send(sseData(failureError(answer.failure, answer.text, options.now()).body));
        } else {
          write(answer.kind === 'reply' ? text.draft(rendered.content) : text.message(rendered.content));
        }
        send(sseData(completionChunk(header, {}, 'stop', { conversation, ...(rendered.approval ? { approval: rendered.approval } : {}) })));
        send(sseData('[DONE]'));
      } catch (error) {
        options.logger.warn({ err: error, runId }, 'streamed answer failed');
      } finally {
        clearInterval(keepAlive);
        stream.end();
      }
    })();
    return { status: 200, body: stream, headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' } };
  }

  async function takeLate(chatId: string): Promise<readonly string[]> {
    return options.lateAnswers.take(chatId).catch((error: unknown) => {
      options.logger.warn({ err: error, chatId }, 'late answers not read');
      return [];
    });
  }
}

/** A turn that could not answer, as an OpenAI error: 502 for the model, 503 for the store, 429 for a budget. Pure. */
function failureError(failure: TurnFailure, reply: string, now: Date): HttpResponse {
  switch (failure.kind) {
    case 'model-unavailable':
      return apiError(502, 'server_error', 'model_unavailable', `The model could not be reached or did not answer. ${reply}`);
    case 'store-unavailable':
      return apiError(503, 'server_error', 'store_unavailable', `The agent's storage stopped answering during the turn. ${reply}`);
    case 'budget-exhausted':
      return apiError(429, 'rate_limit_error', 'budget_exhausted', reply, failure.resetsAt === undefined ? undefined : { 'Retry-After': String(Math.max(1, Math.ceil((Date.parse(failure.resetsAt) - now.getTime()) / 1000))) });
  }
}
