import type { Risk } from '../../src/events/risk.js';
import type { ToolDefinition } from '../../src/registry/define-tool.js';
import type { ToolOutcome } from '../../src/registry/tool-outcome.js';
import { compileInputSchema } from './compile-input-schema.js';
import type { McpCallOptions } from './mcp-server-connection.js';

/** A tool as a server lists it, as far as the agent reads it. */
export type RemoteTool = {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly annotations?: { readonly readOnlyHint?: boolean; readonly destructiveHint?: boolean };
};

/** How to call the tool on its server; answers "unavailable" itself when the server is down. */
export type RemoteCall = (remoteName: string, input: Readonly<Record<string, unknown>>, options: McpCallOptions) => Promise<ToolOutcome>;

/** What a registry tool for one of a server's tools is built from. */
export type McpToolInput = {
  readonly server: string;
  readonly registryName: string;
  readonly remote: RemoteTool;
  /** From config, never from the server. */
  readonly risk: Risk;
  readonly timeoutMs: number;
  readonly call: RemoteCall;
};

/**
 * A server's tool as a registry tool, or why it is skipped (a schema ajv cannot compile). The risk comes from
 * config: read_only runs, anything else always asks a person (and is refused in unattended turns unless cards can
 * reach approvers), and side effects go through the replay guard. The server's hints are shown on the card only.
 * A pattern the linear-time engine cannot run is not checked here, and the description says so.
 */
export function toMcpTool(input: McpToolInput): { readonly ok: true; readonly tool: ToolDefinition } | { readonly ok: false; readonly reason: string } {
  const { remote, server } = input;
  const compiled = compileInputSchema(remote.inputSchema);
  if (!compiled.ok) return compiled;
  const hints = [remote.annotations?.readOnlyHint ? 'read-only' : undefined, remote.annotations?.destructiveHint ? 'destructive' : undefined].filter(Boolean);
  const tool: ToolDefinition = {
    name: input.registryName,
    description: `${remote.description ?? remote.title ?? remote.name} (from the MCP server "${server}")${uncheckedNote(compiled.unchecked)}`,
    input: compiled.input,
    parameters: remote.inputSchema,
    server,
    risk: input.risk,
    approval: input.risk === 'read_only' ? 'by-risk' : 'always',
    sideEffects: input.risk !== 'read_only',
    timeoutMs: input.timeoutMs,
    describeForApproval: (arguments_) =>
      `Call "${remote.name}" on the MCP server "${server}" with ${JSON.stringify(arguments_)}. Risk ${input.risk} (from config${hints.length > 0 ? `; the server calls it ${hints.join(', ')}` : ''}).`,
    execute: (arguments_, context) =>
      input.call(remote.name, arguments_ as Record<string, unknown>, {
        signal: context.signal,
        timeoutMs: input.timeoutMs,
        context: {
          traceId: context.traceId,
          sessionKey: context.sessionKey,
          userId: context.userId,
          channel: context.channel,
          unattended: context.unattended,
          risk: input.risk,
          tool: input.registryName,
          sendMessage: (text) => context.services.sendMessage(text),
        },
        ...(context.elicitationAnswer === undefined ? {} : { elicitationAnswer: context.elicitationAnswer }),
      }),
  };
  return { ok: true, tool };
}

function uncheckedNote(patterns: readonly string[]): string {
  if (patterns.length === 0) return '';
  // Shown to the model, which still sees the patterns in the parameters: the agent itself does not enforce these.
  return ` (not checked before the call, as they need a backtracking engine: ${patterns.map((pattern) => `pattern ${JSON.stringify(pattern)}`).join(', ')})`;
}
