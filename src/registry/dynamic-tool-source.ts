import type { ToolDefinition } from './define-tool.js';

/** How a server that brings tools at run time (an MCP server) is doing, for `/healthz` and the doctor. */
export type ToolServerStatus = {
  readonly state: 'starting' | 'up' | 'down' | 'stopped';
  /** Tools it offers now (none while it is down). */
  readonly tools: number;
  /** Why it is down, or why some of its tools were skipped. */
  readonly error?: string;
  /** When the next connection attempt is due, while it is down. */
  readonly retryAt?: string;
  /** For a server behind OAuth: authorized (and until when), waiting for a person, or why not. */
  readonly auth?: string;
};

/** Tools that come and go while the app runs (MCP servers): the registry reads them on every lookup. */
export interface DynamicToolSource {
  /** The tools offered now. */
  tools(): readonly ToolDefinition[];
  /** Why a tool this source knows is not offered now ("its server is down"), or undefined when it knows no such tool. */
  unavailableReason(name: string): string | undefined;
  /** Calls `listener` whenever `tools()` changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Each server's state, by server name. */
  servers(): Readonly<Record<string, ToolServerStatus>>;
}
