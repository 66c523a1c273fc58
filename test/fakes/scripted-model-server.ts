import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findLastUserText } from './find-last-user-text.js';
import type {
  RecordedRequest,
  ScriptedEntry,
  ScriptedRequestBody,
  ScriptedRequestContext,
  ScriptedStep,
} from './scripted-step.js';
import { toScriptedReply } from './to-scripted-reply.js';
import { writeAnthropicError, writeAnthropicReply } from './write-anthropic-reply.js';
import { writeJson } from './write-json.js';
import { writeOpenAiError, writeOpenAiReply } from './write-openai-reply.js';

export type * from './scripted-step.js';

/** Options for the scripted model server. */
export type ScriptedModelServerOptions = {
  /** Model id reported by `GET /v1/models` and in replies when the request names none. */
  readonly model?: string;
  /** Answer used when the queue is empty; defaults to echoing the last user message. */
  readonly fallback?: ScriptedEntry;
  /** When set, model requests must carry this key (Bearer or x-api-key) or get a 401. */
  readonly apiKey?: string;
};

/** An audio file the transcription endpoint received. */
export type TranscriptionRequest = { readonly model: string; readonly fileName: string; readonly mediaType: string; readonly bytes: number; readonly authorization?: string };

/** What the transcription endpoint answers a file with: a transcript, or an HTTP error status. */
export type TranscriptionAnswer = { readonly text: string } | { readonly status: number };

/** A request to `POST /v1/embeddings`: the model named and the texts to embed. */
export type EmbeddingRequest = { readonly model: string; readonly inputs: readonly string[]; readonly authorization?: string };

/**
 * The default embedding of the scripted server: each word (Latin words whole, CJK characters one by one) hashed into one
 * of 64 dimensions, the vector normalised. Deterministic: texts sharing words are similar, others are not. Pure.
 */
export function deterministicEmbedding(text: string): number[] {
  const vector = new Array<number>(64).fill(0);
  for (const word of text.toLowerCase().match(/[\p{Script=Han}]|[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (const character of word) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16777619) >>> 0;
    vector[hash % 64] = (vector[hash % 64] ?? 0) + 1;
  }
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}

/** A running OpenAI- and Anthropic-compatible HTTP server that answers from a script. */
export type ScriptedModelServer = {
  /** Base URL ending in `/v1`, for OpenAI-compatible clients. */
  readonly url: string;
  /** Base URL without a path, for clients that append `/v1/...` themselves (the Anthropic SDK). */
  readonly origin: string;
  readonly port: number;
  /** Every request received, in order, with its parsed JSON body. */
  readonly requests: readonly RecordedRequest[];
  /** Files posted to `POST /v1/audio/transcriptions` (OpenAI-compatible speech to text), in order. */
  readonly transcriptions: readonly TranscriptionRequest[];
  /** Requests to `POST /v1/embeddings` (kept apart from `requests`, which holds the chat calls), in order. */
  readonly embeddings: readonly EmbeddingRequest[];
  /** Sets the vector `POST /v1/embeddings` returns for a text (default `deterministicEmbedding`), or an HTTP status to fail with. */
  setEmbedding(embed: (text: string) => readonly number[] | { readonly status: number }): void;
  /** Sets how the transcription endpoint answers; by default it answers `{ text: 'transcript of <file name>' }`. */
  setTranscription(answer: (request: TranscriptionRequest) => TranscriptionAnswer): void;
  /** Appends steps or handlers to the queue; each model request takes the next one. */
  enqueue(...entries: ScriptedEntry[]): void;
  /** Sets the answer used whenever the queue is empty (e.g. `{ status: 500 }` for "500 forever"). */
  setFallback(entry: ScriptedEntry): void;
  /** How many queued entries are not yet used. */
  remaining(): number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
};

/** Starts a scripted OpenAI-compatible (and Anthropic Messages) server on 127.0.0.1 with a random port. */
export async function createScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  const model = options.model ?? 'scripted-model';
  const queue: ScriptedEntry[] = [];
  const requests: RecordedRequest[] = [];
  let fallback: ScriptedEntry = options.fallback ?? {};
  let idCounter = 0;
  const nextId = () => {
    idCounter += 1;
    return idCounter;
  };

  const transcriptions: TranscriptionRequest[] = [];
  let transcribe = (request: TranscriptionRequest): TranscriptionAnswer => ({ text: `transcript of ${request.fileName}` });

  async function handleTranscription(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const form = await new Request('http://scripted/', { method: 'POST', headers: { 'content-type': request.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) }).formData();
    const file = form.get('file');
    if (!(file instanceof File)) {
      writeJson(response, 400, { error: { message: 'no file in the form', type: 'invalid_request_error' } });
      return;
    }
    const recorded: TranscriptionRequest = {
      model: String(form.get('model') ?? ''),
      fileName: file.name,
      mediaType: file.type,
      bytes: file.size,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    };
    transcriptions.push(recorded);
    const answer = transcribe(recorded);
    if ('status' in answer) writeJson(response, answer.status, { error: { message: 'transcription refused', type: 'server_error' } });
    else writeJson(response, 200, { text: answer.text });
  }

  const embeddings: EmbeddingRequest[] = [];
  let embed: (text: string) => readonly number[] | { readonly status: number } = deterministicEmbedding;

  async function handleEmbeddings(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body: { model?: unknown; input?: unknown };
    try {
      body = JSON.parse(await readBody(request)) as { model?: unknown; input?: unknown };
    } catch {
      writeOpenAiError(response, { status: 400, errorMessage: 'request body is not JSON' });
      return;
    }
    const inputs = (Array.isArray(body.input) ? body.input : [body.input]).map(String);
    embeddings.push({ model: String(body.model ?? ''), inputs, ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
    const vectors = inputs.map((text) => embed(text));
    const failed = vectors.find((vector): vector is { readonly status: number } => !Array.isArray(vector));
    if (failed !== undefined) {
      writeOpenAiError(response, { status: failed.status, errorMessage: 'embedding refused' });
      return;
    }
    const data = vectors.map((vector, index) => ({ object: 'embedding', index, embedding: vector }));
    writeJson(response, 200, { object: 'list', data, model: String(body.model ?? model), usage: { prompt_tokens: inputs.join(' ').length, total_tokens: inputs.join(' ').length } });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const method = request.method ?? 'GET';
    if (method === 'POST' && path === '/v1/audio/transcriptions') {
      await handleTranscription(request, response);
      return;
    }
    if (method === 'POST' && path === '/v1/embeddings') {
      await handleEmbeddings(request, response);
      return;
    }
    const bodyText = await readBody(request);
    let body: ScriptedRequestBody | undefined;
    let isValidJson = true;
    if (bodyText !== '') {
      try {
        body = JSON.parse(bodyText) as ScriptedRequestBody;
      } catch {
        isValidJson = false;
      }
    }
    const requestIndex = requests.length;
    requests.push({ method, path, headers: request.headers, body });

    if (method === 'GET' && path === '/v1/models') {
      // Like a real endpoint, listing models needs the key too.
      if (options.apiKey !== undefined && !carriesKey(request, options.apiKey)) {
        writeOpenAiError(response, { status: 401, errorMessage: 'invalid api key' });
        return;
      }
      writeJson(response, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'scripted' }] });
      return;
    }
    const api = method === 'POST' && path === '/v1/chat/completions' ? 'openai' : method === 'POST' && path === '/v1/messages' ? 'anthropic' : undefined;
    if (api === undefined) {
      writeJson(response, 404, { error: { message: `no route for ${method} ${path}`, type: 'not_found' } });
      return;
    }
    const writeError = api === 'openai' ? writeOpenAiError : writeAnthropicError;
    if (!isValidJson || body === undefined) {
      writeError(response, { status: 400, errorMessage: 'request body is not JSON' });
      return;
    }
    if (options.apiKey !== undefined && !carriesKey(request, options.apiKey)) {
      writeError(response, { status: 401, errorMessage: 'invalid api key' });
      return;
    }

    const lastUserText = findLastUserText(body);
    const context: ScriptedRequestContext = { api, lastUserText, headers: request.headers, requestIndex };
    const step = await resolveStep(queue.shift() ?? fallback, body, context);
    if (step.delayMs !== undefined && step.delayMs > 0) await wait(step.delayMs, response);
    if (step.status !== undefined && step.status >= 400) {
      writeError(response, { ...step, status: step.status });
      return;
    }
    const reply = toScriptedReply(step, { lastUserText, idPrefix: api === 'openai' ? 'call_' : 'toolu_', nextId });
    const replyModel = typeof body.model === 'string' ? body.model : model;
    if (api === 'openai') {
      const id = `chatcmpl-${nextId()}`;
      const streamOptions = body.stream_options as { readonly include_usage?: boolean } | undefined;
      await writeOpenAiReply(response, reply, { model: replyModel, stream: body.stream === true, id, includeUsage: streamOptions?.include_usage === true });
      return;
    }
    if (body.stream === true) {
      writeError(response, { status: 400, errorMessage: 'the scripted server does not stream /v1/messages' });
      return;
    }
    writeAnthropicReply(response, reply, { model: replyModel, id: `msg_${nextId()}` });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      writeJson(response, 500, { error: { message: `scripted server failed: ${String(error)}`, type: 'server_error' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    port,
    requests,
    transcriptions,
    embeddings,
    setEmbedding: (next) => {
      embed = next;
    },
    setTranscription: (answer) => {
      transcribe = answer;
    },
    enqueue: (...entries) => {
      queue.push(...entries);
    },
    setFallback: (entry) => {
      fallback = entry;
    },
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function resolveStep(
  entry: ScriptedEntry,
  body: ScriptedRequestBody,
  context: ScriptedRequestContext,
): Promise<ScriptedStep> {
  if (typeof entry !== 'function') return entry;
  try {
    return await entry(body, context);
  } catch (error) {
    return { status: 500, errorMessage: `scripted handler threw: ${String(error)}` };
  }
}

function carriesKey(request: IncomingMessage, apiKey: string): boolean {
  return request.headers.authorization === `Bearer ${apiKey}` || request.headers['x-api-key'] === apiKey;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// Ends early when the client goes away (timeouts, aborts), so no timer outlives the request.
function wait(milliseconds: number, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      response.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    response.once('close', done);
  });
}
