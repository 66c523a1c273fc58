import { addAmounts } from '../../src/store/add-amounts.js';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { createId, createShortId } from '../../src/events/create-id.js';
import type { Delivery } from '../../src/events/outbound-event.js';
import { createSessionKey } from '../../src/events/session-key.js';
import type { Target } from '../../src/events/target.js';
import { createUrlChecker } from '../../src/policy/network-policy.js';
import type { ToolContext, ToolServices, UrlCheck } from '../../src/registry/tool-context.js';
import type { JobRequest, ScheduledJob, SchedulerPort } from '../../src/scheduling/scheduled-job.js';
import type { KeyValueNamespace } from '../../src/store/key-value-namespace.js';

/** What a test may change about the fake services and the context of a call. */
export type FakeToolServicesOptions = {
  readonly channel?: string;
  readonly chatId?: string;
  readonly userId?: string;
  readonly history?: readonly ChatMessage[];
  readonly checkUrl?: (url: string) => Promise<UrlCheck>;
  readonly sendMessage?: (text: string) => Promise<Delivery>;
  readonly signal?: AbortSignal;
  readonly now?: () => Date;
  readonly timezone?: string;
};

/** A real ToolContext over in-memory peers, with handles to inspect what the tool did. */
export type FakeToolServices = {
  readonly context: ToolContext;
  readonly services: ToolServices;
  /** Texts sendMessage was called with, in order. */
  readonly sentMessages: readonly string[];
  /** Files sendFile was called with, in order. */
  readonly sentFiles: readonly Parameters<ToolServices['sendFile']>[0][];
  readonly scheduler: SchedulerPort;
  /** The temporary workspace folder (real path). */
  readonly workspaceDir: string;
  /** A context for the same services and store, as another user or chat. */
  contextFor(parts: { readonly channel?: string; readonly chatId?: string; readonly userId?: string }): ToolContext;
  /** Removes the temporary workspace. */
  cleanup(): Promise<void>;
};

/** Builds a ToolContext backed by an in-memory store and scheduler, a recording sendMessage and a temporary workspace. */
export async function createFakeToolServices(options: FakeToolServicesOptions = {}): Promise<FakeToolServices> {
  const workspaceDir = await realpath(await mkdtemp(path.join(tmpdir(), 'echo-tools-')));
  const now = options.now ?? (() => new Date());
  const namespaces = new Map<string, Map<string, StoredValue>>();
  const sentMessages: string[] = [];
  const sentFiles: Parameters<ToolServices['sendFile']>[0][] = [];
  const scheduler = createInMemoryScheduler(now);
  const services: ToolServices = {
    state: <Value>(name: string): KeyValueNamespace<Value> => {
      let entries = namespaces.get(name);
      if (entries === undefined) {
        entries = new Map();
        namespaces.set(name, entries);
      }
      return createInMemoryNamespace<Value>(entries, now);
    },
    sendMessage:
      options.sendMessage ??
      (async (text) => {
        sentMessages.push(text);
        return { ok: true, messageId: String(sentMessages.length) };
      }),
    sendFile: async (file) => {
      sentFiles.push(file);
      return { ok: true, messageId: `file-${sentFiles.length}` };
    },
    scheduler,
    history: async () => options.history ?? [],
    workspaceDir,
    checkUrl: options.checkUrl ?? createUrlChecker({ mode: 'deny' }),
    now,
    timezone: options.timezone ?? 'UTC',
  };
  const contextFor = (parts: { readonly channel?: string; readonly chatId?: string; readonly userId?: string }): ToolContext => {
    const channel = parts.channel ?? options.channel ?? 'telegram';
    const chatId = parts.chatId ?? options.chatId ?? '1001';
    return {
      executionId: createId(),
      traceId: createId(),
      sessionKey: createSessionKey({ channel, chatId }),
      userId: parts.userId ?? options.userId ?? '42',
      channel,
      chatId,
      target: { channel, chatId },
      origin: 'user',
      unattended: false,
      attempt: 1,
      idempotencyKey: createId(),
      approvedActions: [],
      signal: options.signal ?? new AbortController().signal,
      credentials: {},
      services,
    };
  };
  return {
    context: contextFor({}),
    services,
    sentMessages,
    sentFiles,
    scheduler,
    workspaceDir,
    contextFor,
    cleanup: () => rm(workspaceDir, { recursive: true, force: true }),
  };
}

type StoredValue = { readonly json: string; readonly expiresAt?: number };

// Values are kept as JSON, as a real store keeps them: a tool that relies on object identity fails here too.
function createInMemoryNamespace<Value>(entries: Map<string, StoredValue>, now: () => Date): KeyValueNamespace<Value> {
  const read = (key: string): Value | undefined => {
    const stored = entries.get(key);
    if (stored === undefined) return undefined;
    if (stored.expiresAt !== undefined && stored.expiresAt <= now().getTime()) {
      entries.delete(key);
      return undefined;
    }
    return JSON.parse(stored.json) as Value;
  };
  const write = (key: string, value: Value, ttlMs?: number): void => {
    entries.set(key, { json: JSON.stringify(value), ...(ttlMs === undefined ? {} : { expiresAt: now().getTime() + ttlMs }) });
  };
  return {
    get: async (key) => read(key),
    set: async (key, value, ttlMs) => write(key, value, ttlMs),
    delete: async (key) => read(key) !== undefined && entries.delete(key),
    setIfAbsent: async (key, value, ttlMs) => {
      if (read(key) !== undefined) return false;
      write(key, value, ttlMs);
      return true;
    },
    // Read, transform and write happen in one synchronous step: nothing else can touch the key in between.
    update: async (key, updater, ttlMs) => {
      const next = updater(read(key));
      if (next === undefined) {
        entries.delete(key);
        return undefined;
      }
      write(key, next, ttlMs);
      return read(key);
    },
    add: async (key, amounts, ttlMs) => {
      const current = read(key);
      const keptExpiry = current === undefined ? undefined : entries.get(key)?.expiresAt;
      const next = addAmounts(current, amounts);
      const expiresAt = ttlMs === undefined ? keptExpiry : now().getTime() + ttlMs;
      entries.set(key, { json: JSON.stringify(next), ...(expiresAt === undefined ? {} : { expiresAt }) });
      return next as Value;
    },
    entries: async () => [...entries.keys()].flatMap((key) => {
      const value = read(key);
      return value === undefined ? [] : [[key, value] as const];
    }),
  };
}

const isoTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const cronField = /^[\d*/,?LW#A-Za-z-]+$/;

function createInMemoryScheduler(now: () => Date): SchedulerPort {
  const jobs = new Map<string, ScheduledJob>();
  const validate: SchedulerPort['validate'] = (schedule, timezone) => {
    if (timezone !== undefined) {
      try {
        new Intl.DateTimeFormat('en', { timeZone: timezone });
      } catch {
        return { ok: false, error: `${timezone} is not a known time zone.` };
      }
    }
    if (isoTime.test(schedule)) {
      const at = new Date(schedule);
      if (Number.isNaN(at.getTime())) return { ok: false, error: 'That date-time does not exist.' };
      if (at.getTime() <= now().getTime()) return { ok: false, error: 'That time is in the past.' };
      return { ok: true, nextRunAt: at.toISOString() };
    }
    const fields = schedule.trim().split(/\s+/);
    if ((fields.length !== 5 && fields.length !== 6) || !fields.every((field) => cronField.test(field))) {
      return { ok: false, error: 'Use a cron expression with 5 or 6 fields, or an ISO 8601 time.' };
    }
    return { ok: true };
  };
  return {
    validate,
    create: async (request: JobRequest) => {
      const validation = validate(request.schedule, request.timezone);
      if (!validation.ok) return validation;
      const job: ScheduledJob = {
        id: createShortId(),
        schedule: request.schedule,
        timezone: request.timezone ?? 'UTC',
        prompt: request.prompt,
        target: request.target,
        source: 'tool',
        createdBy: request.createdBy,
        createdAt: now().toISOString(),
        catchUp: 'skip',
        ...(validation.nextRunAt === undefined ? {} : { nextRunAt: validation.nextRunAt }),
      };
      jobs.set(job.id, job);
      return { ok: true, job };
    },
    list: async (filter?: { readonly target?: Target }) =>
      [...jobs.values()].filter((job) => filter?.target === undefined || (job.target.channel === filter.target.channel && job.target.chatId === filter.target.chatId)),
    cancel: async (id) => {
      const job = jobs.get(id);
      if (job === undefined) return { ok: false, error: `No job ${id}.` };
      jobs.delete(id);
      return { ok: true, job };
    },
  };
}
