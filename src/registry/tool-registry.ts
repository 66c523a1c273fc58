import type { ToolCall } from '../model/chat-message.js';
import type { ToolSchema } from '../model/model-port.js';
import { createId } from '../events/create-id.js';
import type { CapabilityRules } from '../policy/decide-tool-access.js';
import type { ApprovalHook } from './approval-hook.js';
import type { AuditLog } from './audit-log.js';
import { hashParts, hashToolCall } from './canonical-json.js';
import type { ToolDefinition } from './define-tool.js';
import type { DynamicToolSource } from './dynamic-tool-source.js';
import { executeTool } from './execute-tool.js';
import type { ReplayGuard } from './replay-guard.js';
import type { ToolContext } from './tool-context.js';
import { toToolSchema } from './tool-json-schema.js';
import type { ToolResult } from './tool-outcome.js';

const validName = /^[A-Za-z0-9_-]{1,64}$/;

/** Names the model may use for another tool: resolved before lookup. */
export const defaultAliases: Readonly<Record<string, string>> = { bash: 'exec', shell: 'exec' };

/** Everything the registry needs to know about the turn a call belongs to: the context the tool will see, and what the model was shown. */
export type ExecutionRequest = Pick<
  ToolContext,
  'traceId' | 'sessionKey' | 'userId' | 'channel' | 'chatId' | 'target' | 'origin' | 'unattended' | 'allowedTools' | 'delegationChain' | 'approvedActions' | 'services' | 'elicitationAnswer'
> & {
  readonly call: ToolCall;
  /** Tools resolved for this session by policy (what the model was shown). */
  readonly visibleTools: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /**
   * True when this trace began in this process (a fresh turn, not one resumed from the store): no earlier
   * process can have recorded its side effects, so the replay guard looks in memory only.
   */
  readonly traceStartedHere?: boolean;
  /**
   * What identifies this call within its turn across a re-run: the run (event or resumption) and the
   * call's position in it. The model's call id changes on every model call, so it cannot serve. Falls
   * back to the call id.
   */
  readonly callKey?: string;
};

/** What `execute` returns: a result for the model, or a call that waits for a person. */
export type ExecuteOutcome =
  | { readonly kind: 'result'; readonly toolName: string; readonly result: ToolResult }
  | {
      readonly kind: 'approval-required';
      readonly toolName: string;
      readonly tool: ToolDefinition;
      readonly input: unknown;
      readonly argumentsHash: string;
      readonly reason: string;
      /** The approval reviewer may settle it before a person is asked (smart mode). */
      readonly reviewable?: boolean;
    };

/** The governed tool registry. */
export interface ToolRegistry {
  /** Every registered name, sorted. */
  names(): readonly string[];
  /** Looks a tool up by name or alias, by own property only. */
  find(name: string): ToolDefinition | undefined;
  /** The JSON-Schema definitions of the tools this session may see. */
  definitions(visibleTools: ReadonlySet<string>): readonly ToolSchema[];
  /** Calls `listener` when the set of tools changes (a dynamic source added or withdrew some); returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  execute(request: ExecutionRequest): Promise<ExecuteOutcome>;
  /** Waits for the work it does in the background (idempotency records) to reach the store. */
  flush(): Promise<void>;
}

/** What the registry is built from. */
export type ToolRegistryOptions = {
  readonly tools: readonly ToolDefinition[];
  /** Tools that come and go at run time (MCP servers); checked like the static ones whenever they change. */
  readonly toolSource?: DynamicToolSource;
  /** Told about a tool from the dynamic source that was refused (bad name, clash, schema that does not export). */
  readonly onToolRejected?: (name: string, reason: string) => void;
  readonly aliases?: Readonly<Record<string, string>>;
  readonly audit: AuditLog;
  readonly replayGuard: ReplayGuard;
  readonly approvalHook?: ApprovalHook;
  readonly network: 'public-only' | 'allow' | 'deny';
  readonly capabilityRules?: CapabilityRules;
  readonly credentials?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Told about failures of work the registry does in the background (persisting idempotency keys). */
  readonly onBackgroundError?: (error: unknown, what: string) => void;
  /** Wait between retries; injectable so tests do not sleep. */
  readonly backoffMs?: (attempt: number) => number;
};

/** Builds the registry, refusing bad names, duplicates, alias clashes and schemas that do not export. */
export function createToolRegistry(options: ToolRegistryOptions): { ok: true; registry: ToolRegistry } | { ok: false; error: string } {
  const aliases = options.aliases ?? defaultAliases;
  const tools = new Map<string, ToolDefinition>();
  const schemas = new Map<string, ToolSchema>();
  for (const tool of options.tools) {
    if (!validName.test(tool.name)) return { ok: false, error: `Tool name "${tool.name}" must match ${validName.source}.` };
    if (tools.has(tool.name)) return { ok: false, error: `Tool "${tool.name}" is registered twice.` };
    if (Object.hasOwn(aliases, tool.name)) return { ok: false, error: `Tool name "${tool.name}" is taken by an alias.` };
    const exported = toToolSchema(tool);
    if (!exported.ok) return { ok: false, error: `Tool "${tool.name}" cannot be registered: ${exported.error}.` };
    tools.set(tool.name, tool);
    schemas.set(tool.name, exported.schema);
  }

  // The dynamic source's tools, checked like the static ones; rebuilt when the source says they changed.
  let dynamicTools = new Map<string, ToolDefinition>();
  let dynamicSchemas = new Map<string, ToolSchema>();
  const refresh = () => {
    const nextTools = new Map<string, ToolDefinition>();
    const nextSchemas = new Map<string, ToolSchema>();
    for (const tool of options.toolSource?.tools() ?? []) {
      let problem: string | undefined;
      const exported = toToolSchema(tool);
      if (!validName.test(tool.name)) problem = `its name must match ${validName.source}`;
      else if (tools.has(tool.name) || nextTools.has(tool.name) || Object.hasOwn(aliases, tool.name)) problem = 'its name is taken';
      else if (!exported.ok) problem = exported.error;
      if (problem !== undefined || !exported.ok) {
        options.onToolRejected?.(tool.name, problem ?? 'its schema does not export');
        continue;
      }
      nextTools.set(tool.name, tool);
      nextSchemas.set(tool.name, exported.schema);
    }
    dynamicTools = nextTools;
    dynamicSchemas = nextSchemas;
    definitionsSeen = new WeakMap();
  };
  /** The definitions given for each set of visible tools (the runtime keeps one set per channel), until the tools change: every turn asks. */
  let definitionsSeen = new WeakMap<ReadonlySet<string>, readonly ToolSchema[]>();
  refresh();
  const listeners = new Set<() => void>();
  options.toolSource?.onChange(() => {
    refresh();
    for (const listener of listeners) listener();
  });

  // Tool names come from the model: only own entries of the maps count, never inherited properties.
  function find(name: string): ToolDefinition | undefined {
    const resolved = Object.hasOwn(aliases, name) ? (aliases[name] ?? name) : name;
    return tools.get(resolved) ?? dynamicTools.get(resolved);
  }

  const registry: ToolRegistry = {
    names: () => [...tools.keys(), ...dynamicTools.keys()].sort(),
    find,
    definitions(visibleTools) {
      const seen = definitionsSeen.get(visibleTools);
      if (seen !== undefined) return seen;
      const definitions = [...schemas.entries(), ...dynamicSchemas.entries()].filter(([name]) => visibleTools.has(name)).map(([, schema]) => schema);
      definitionsSeen.set(visibleTools, definitions);
      return definitions;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: () => options.replayGuard.flush(),
    async execute(request) {
      const tool = find(request.call.name);
      return executeTool({
        request,
        tool,
        options,
        executionId: createId(),
        unavailableReason: tool ? undefined : options.toolSource?.unavailableReason(request.call.name),
        idempotencyKey: (input: unknown) => hashParts(request.traceId, tool?.name ?? request.call.name, request.callKey ?? request.call.id, hashToolCall(tool?.name ?? '', input)),
      });
    },
  };
  return { ok: true, registry };
}
