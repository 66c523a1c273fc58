import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo, Socket } from 'node:net';

/** One Bot API call the proxy saw, and what it answered. */
export type BotApiCall = {
  readonly method: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly status: number;
  /** Which bot instance made the call (`byInstance` only). */
  readonly instance?: string;
};

/** One getUpdates call from its arrival to its answer (or its connection closing), in ms since the epoch. */
export type PollInterval = { readonly instance: string; readonly startedAt: number; endedAt?: number };

/** A fault to inject: an answer of our own, `hang` (never answer), or undefined to pass the call through. */
export type FaultAnswer = { readonly status: number; readonly body: unknown } | 'hang';

/** A recording, fault-injecting HTTP proxy in front of a Bot API server (the emulator). */
export type TelegramFaultProxy = {
  /** The Bot API root to give the bot. */
  readonly apiRoot: string;
  readonly calls: readonly BotApiCall[];
  /** Calls of one method, in order. */
  callsOf(method: string): BotApiCall[];
  /** Answers the next `times` calls of `method` that match `when` with `answer` instead of passing them on. */
  inject(method: string, answer: FaultAnswer, options?: { readonly times?: number; readonly when?: (body: Readonly<Record<string, unknown>>) => boolean }): void;
  /** Every getUpdates call of a named instance with when it started and ended. */
  readonly polls: readonly PollInterval[];
  /** Another port into the same proxy (the same updates and acknowledgements), whose calls are recorded under `name`; resolves to its Bot API root. */
  addInstance(name: string): Promise<string>;
  /** Delivers every update of the next non-empty getUpdates answer a second time, in the answer after it (a re-delivery). */
  redeliverNextUpdates(): void;
  /** How many updates were delivered a second time. */
  readonly redelivered: number;
  /** Every update the bot received through getUpdates, in order (re-deliveries included). */
  readonly deliveredUpdates: readonly { readonly update_id: number; readonly [field: string]: unknown }[];
  /** Delivers these updates again in the next getUpdates answer, as Telegram does with updates it thinks unacknowledged. */
  deliverAgain(updates: readonly unknown[]): void;
  /**
   * Hosts a file as api.telegram.org does (the emulator has no files): getFile for `fileId` answers a path and the
   * declared size (default the real one), and the file URL serves the bytes, streamed from `path` when given.
   */
  hostFile(fileId: string, file: { readonly bytes?: Buffer; readonly path?: string; readonly declaredSize?: number }): void;
  /** Files the bot uploaded with sendPhoto or sendDocument (which the emulator lacks), answered as sent. */
  readonly uploads: readonly Upload[];
  close(): Promise<void>;
};

/** A file the bot uploaded. */
export type Upload = { readonly method: string; readonly chatId: string; readonly caption?: string; readonly fileName: string; readonly bytes: Buffer };

/** Options of the proxy. */
export type TelegramFaultProxyOptions = {
  /**
   * Behave like api.telegram.org about acknowledgements: an update stays in getUpdates answers until a
   * later call's `offset` passes it (the emulator forgets an update once it has been fetched). A bot that
   * does not acknowledge an update (a crash, a store that refused it) gets it again.
   */
  readonly honourOffsets?: boolean;
};

type Rule = { readonly method: string; readonly answer: FaultAnswer; remaining: number; readonly when?: (body: Readonly<Record<string, unknown>>) => boolean };

/** Starts the proxy on a random port, forwarding to `target` (e.g. the emulator's api root); `options.honourOffsets` re-delivers what the bot did not acknowledge. */
export async function startTelegramFaultProxy(target: string, options: TelegramFaultProxyOptions = {}): Promise<TelegramFaultProxy> {
  const calls: BotApiCall[] = [];
  const polls: PollInterval[] = [];
  // Updates handed out and not yet acknowledged by an offset past them (honourOffsets only).
  let unacknowledged: { readonly update_id: number }[] = [];
  const rules: Rule[] = [];
  const sockets = new Set<Socket>();
  let redeliver: 'off' | 'capture' | unknown[] = 'off';
  let redelivered = 0;
  const deliveredUpdates: { readonly update_id: number }[] = [];
  const hosted = new Map<string, { readonly bytes?: Buffer; readonly path?: string; readonly declaredSize?: number }>();
  const uploads: Upload[] = [];

  async function handle(request: IncomingMessage, response: ServerResponse, instance?: string): Promise<void> {
    const path = request.url ?? '/';
    const method = path.split('/').at(-1) ?? '';
    const fileMatch = /^\/file\/bot[^/]+\/files\/(.+)$/.exec(path);
    const hostedFile = fileMatch ? hosted.get(decodeURIComponent(fileMatch[1] ?? '')) : undefined;
    if (hostedFile) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      if (hostedFile.path) await pipeline(createReadStream(hostedFile.path), response);
      else response.end(hostedFile.bytes);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const text = raw.toString('utf8');
    if (method === 'sendPhoto' || method === 'sendDocument') {
      const form = await new Request('http://proxy/', { method: 'POST', headers: { 'content-type': request.headers['content-type'] ?? '' }, body: raw }).formData();
      const file = form.get(method === 'sendPhoto' ? 'photo' : 'document');
      const caption = form.get('caption');
      const upload: Upload = {
        method,
        chatId: String(form.get('chat_id')),
        ...(typeof caption === 'string' ? { caption } : {}),
        fileName: file instanceof File ? file.name : '',
        bytes: file instanceof File ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0),
      };
      uploads.push(upload);
      calls.push({ method, body: { chat_id: upload.chatId, caption: upload.caption, fileName: upload.fileName }, status: 200 });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { message_id: 90_000 + uploads.length, chat: { id: Number(upload.chatId) }, date: 0 } }));
      return;
    }
    let body: Record<string, unknown> = {};
    try {
      body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      body = { raw: text };
    }
    if (instance !== undefined && path.endsWith('/getUpdates')) {
      const poll: PollInterval = { instance, startedAt: Date.now() };
      polls.push(poll);
      response.on('close', () => {
        poll.endedAt = Date.now();
      });
    }
    if (method === 'getFile' && typeof body.file_id === 'string' && hosted.has(body.file_id)) {
      const file = hosted.get(body.file_id);
      const size = file?.declaredSize ?? (file?.path ? statSync(file.path).size : (file?.bytes?.length ?? 0));
      calls.push({ method, body, status: 200 });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { file_id: body.file_id, file_size: size, file_path: `files/${body.file_id}` } }));
      return;
    }
    const rule = rules.find((candidate) => candidate.method === method && candidate.remaining > 0 && (candidate.when?.(body) ?? true));
    if (rule) {
      rule.remaining -= 1;
      if (rule.answer === 'hang') {
        calls.push({ method, body, status: 0, ...(instance ? { instance } : {}) });
        return;
      }
      calls.push({ method, body, status: rule.answer.status, ...(instance ? { instance } : {}) });
      response.writeHead(rule.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(rule.answer.body));
      return;
    }
    const upstream = await fetch(`${target}${path}`, { method: request.method ?? 'POST', headers: { 'content-type': request.headers['content-type'] ?? 'application/json' }, body: text === '' ? undefined : text });
    let answer = await upstream.text();
    if (method === 'getUpdates' && upstream.ok && options.honourOffsets) answer = applyOffset(answer, body.offset);
    if (method === 'getUpdates' && upstream.ok) answer = applyRedelivery(answer);
    if (method === 'getUpdates' && upstream.ok) deliveredUpdates.push(...(JSON.parse(answer) as { result: { update_id: number }[] }).result);
    calls.push({ method, body, status: upstream.status, ...(instance ? { instance } : {}) });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(answer);
  }

  function applyOffset(answer: string, offset: unknown): string {
    const parsed = JSON.parse(answer) as { ok: boolean; result: { update_id: number }[] };
    if (typeof offset === 'number') unacknowledged = unacknowledged.filter((update) => update.update_id >= offset);
    for (const update of parsed.result) if (!unacknowledged.some((kept) => kept.update_id === update.update_id)) unacknowledged.push(update);
    unacknowledged.sort((left, right) => left.update_id - right.update_id);
    return JSON.stringify({ ...parsed, result: unacknowledged });
  }

  function applyRedelivery(answer: string): string {
    if (redeliver === 'off') return answer;
    const parsed = JSON.parse(answer) as { ok: boolean; result: unknown[] };
    if (redeliver === 'capture') {
      if (parsed.result.length > 0) redeliver = parsed.result;
      return answer;
    }
    const again = redeliver as unknown[];
    redeliver = 'off';
    redelivered += again.length;
    return JSON.stringify({ ...parsed, result: [...again, ...parsed.result] });
  }

  const servers: ReturnType<typeof createServer>[] = [];
  async function listen(instance?: string): Promise<string> {
    const server = createServer((request, response) => {
      handle(request, response, instance).catch((error: unknown) => {
        response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error_code: 502, description: String(error) }));
      });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const apiRoot = await listen();

  return {
    apiRoot,
    addInstance: (name) => listen(name),
    calls,
    polls,
    callsOf: (method) => calls.filter((call) => call.method === method),
    inject(method, answer, options = {}) {
      rules.push({ method, answer, remaining: options.times ?? 1, when: options.when });
    },
    hostFile(fileId, file) {
      hosted.set(fileId, file);
    },
    uploads,
    redeliverNextUpdates() {
      redeliver = 'capture';
    },
    get redelivered() {
      return redelivered;
    },
    deliveredUpdates,
    deliverAgain(updates) {
      redeliver = [...updates];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}
