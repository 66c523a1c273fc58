/**
 * Elicitation: an MCP server asks the person for input during a tool call (`elicitation/create`). These are the
 * core's own shapes for it (no SDK types), shared by the MCP source (tools/mcp), the registry and the agent.
 */

/** What the server asked for, in form mode: a message and a flat object schema of primitive fields. */
export type ElicitationForm = {
  /** Per call, per request: names the suspension's live request in this process. */
  readonly elicitationId: string;
  /** The MCP server that asks (shown with every message), or the agent when `asker` is `agent`. */
  readonly server: string;
  /** Who asks: an MCP server (the default) or another agent (a peer over A2A); only the wording differs. */
  readonly asker?: 'server' | 'agent';
  readonly message: string;
  /** The requested schema as the server sent it (`type: object`, `properties`, `required`). */
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  /** Canonical JSON of the message and schema: a re-sent request after a restart is recognised by it. */
  readonly fingerprint: string;
  /** The risk of the tool that asks (from config): above `read_only`, the chat's approvers answer. */
  readonly risk: string;
};

/** The person's answer, as the server receives it. */
export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/** An answer recorded for a suspended elicitation, handed back to the tool when its call is resumed. */
export type ElicitationAnswer = {
  readonly elicitationId: string;
  readonly fingerprint: string;
  readonly action: ElicitationAction;
  /** The accepted values, defaults applied; only with `accept`. */
  readonly content?: Readonly<Record<string, unknown>>;
};
