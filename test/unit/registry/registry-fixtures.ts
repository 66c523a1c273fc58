import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCall } from '../../../src/model/chat-message.js';
import type { ApprovalHook } from '../../../src/registry/approval-hook.js';
import { type AuditLog, createAuditLog } from '../../../src/registry/audit-log.js';
import type { ToolDefinition } from '../../../src/registry/define-tool.js';
import { createReplayGuard, type ReplayGuard } from '../../../src/registry/replay-guard.js';
import { openStartedMarkLog } from '../../../src/registry/started-mark-log.js';
import type { ToolServices } from '../../../src/registry/tool-context.js';
import type { ToolResult } from '../../../src/registry/tool-outcome.js';
import { createToolRegistry, type ExecutionRequest, type ToolRegistry, type ToolRegistryOptions } from '../../../src/registry/tool-registry.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';

/** A temporary folder removed by `remove()`. */
export function createTemporaryFolder(prefix: string): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `echo-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A real registry over a real SQLite store and a real audit log in a temporary folder. */
export type RegistryHarness = {
  readonly registry: ToolRegistry;
  readonly audit: AuditLog;
  readonly store: Store;
  readonly dataDir: string;
  /** A second registry over the same store (a restarted process). */
  /** A restart: the running registry flushes what it still writes (as the app does on stop), then a new one is built. */
  reopen(tools?: readonly ToolDefinition[]): Promise<ToolRegistry>;
  close(): Promise<void>;
};

/** What a harness may change about the registry it builds. */
export type RegistryHarnessOptions = Partial<Omit<ToolRegistryOptions, 'tools' | 'audit' | 'replayGuard'>> & {
  readonly tools: readonly ToolDefinition[];
  readonly dataDir?: string;
  /** Where started marks go: the file beside the SQLite store, as the app does (default), or the store itself (Redis, PostgreSQL). */
  readonly marks?: 'file' | 'store';
  /** Builds the approval hook over the harness's own store (a real gate with real grants). */
  readonly approvalHookFrom?: (store: Store) => ApprovalHook;
};

/** Builds the harness; `close()` closes the store and removes the folder it created. */
export async function createRegistryHarness(options: RegistryHarnessOptions): Promise<RegistryHarness> {
  const folder = options.dataDir === undefined ? createTemporaryFolder('registry') : undefined;
  const dataDir = options.dataDir ?? folder?.path ?? '';
  const store = await createStore({ dataDir });
  const audit = createAuditLog({ directory: join(dataDir, 'audit') });
  const { approvalHookFrom, dataDir: _dataDir, marks = 'file', ...registryOptions } = options;
  const approvalHook = approvalHookFrom ? approvalHookFrom(store) : options.approvalHook;
  const guards: ReplayGuard[] = [];
  // Each build is a process: it opens the mark file as it finds it (a dead process never closed its own) and moves
  // what an earlier one left into the store, as createApp does.
  const build = async (tools: readonly ToolDefinition[]): Promise<ToolRegistry> => {
    const markLog = marks === 'file' && store.localFile !== undefined ? openStartedMarkLog({ file: `${store.localFile}-started` }) : undefined;
    const replayGuard = createReplayGuard({ store: store.namespace<ToolResult>('idempotency'), ...(markLog ? { markLog } : {}) });
    guards.push(replayGuard);
    await replayGuard.recover();
    const created = createToolRegistry({
      network: 'public-only',
      backoffMs: () => 0,
      ...registryOptions,
      approvalHook,
      tools,
      audit,
      replayGuard,
    });
    if (!created.ok) throw new Error(created.error);
    return created.registry;
  };
  const registry = await build(options.tools);
  return {
    registry,
    audit,
    store,
    dataDir,
    async reopen(tools) {
      await registry.flush();
      return build(tools ?? options.tools);
    },
    async close() {
      for (const guard of guards) guard.close();
      await audit.flush();
      await store.close();
      folder?.remove();
    },
  };
}

/** Services no test tool here touches; any use fails the test loudly. */
export const untouchedServices: ToolServices = {
  state: () => {
    throw new Error('state() was not expected');
  },
  sendMessage: async () => {
    throw new Error('sendMessage() was not expected');
  },
  sendFile: async () => {
    throw new Error('sendFile() was not expected');
  },
  scheduler: {
    validate: () => ({ ok: false, error: 'no scheduler in this test' }),
    create: async () => ({ ok: false, error: 'no scheduler in this test' }),
    list: async () => [],
    cancel: async () => ({ ok: false, error: 'no scheduler in this test' }),
  },
  history: async () => [],
  workspaceDir: tmpdir(),
  checkUrl: async () => ({ ok: false, reason: 'no network in this test' }),
  now: () => new Date('2025-01-01T00:00:00.000Z'),
  timezone: 'UTC',
};

let callCounter = 0;

/** A tool call as the model would send it; a fresh call id unless one is given. */
export function callOf(name: string, argumentsValue: unknown, id?: string): ToolCall {
  callCounter += 1;
  return { id: id ?? `call-${callCounter}`, name, argumentsText: typeof argumentsValue === 'string' ? argumentsValue : JSON.stringify(argumentsValue) };
}

/** An execution request in a default attended telegram session that sees `visible`. */
export function requestFor(call: ToolCall, visible: Iterable<string>, overrides: Partial<ExecutionRequest> = {}): ExecutionRequest {
  return {
    call,
    traceId: 'trace-1',
    sessionKey: 'telegram:1001',
    userId: '42',
    channel: 'telegram',
    chatId: '1001',
    target: { channel: 'telegram', chatId: '1001' },
    origin: 'user',
    unattended: false,
    visibleTools: new Set(visible),
    approvedActions: [],
    services: untouchedServices,
    ...overrides,
  };
}

/** A hook that always gives the same decision and records what it was asked. */
export function fixedHook(decision: Awaited<ReturnType<ApprovalHook>>): ApprovalHook & { readonly asked: Parameters<ApprovalHook>[0][] } {
  const asked: Parameters<ApprovalHook>[0][] = [];
  const hook = async (request: Parameters<ApprovalHook>[0]) => {
    asked.push(request);
    return decision;
  };
  return Object.assign(hook, { asked });
}
