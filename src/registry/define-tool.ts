import type { z } from 'zod';
import type { Risk } from '../events/risk.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutcome } from './tool-outcome.js';

/** When a call of this tool needs a person's approval. `by-risk`: exec and dangerous ask. */
export type ApprovalMode = 'never' | 'by-risk' | 'always';

/** What a tool may use to describe a call on its approval card. */
export type ApprovalFacts = { readonly timezone: string };

/** A tool declaration: what it does, what it accepts, how risky it is, and how to run it. */
export type ToolDefinition<Schema extends z.ZodType = z.ZodType> = {
  /** `^[A-Za-z0-9_-]{1,64}$`. */
  readonly name: string;
  /** What the model reads to decide when to call it. */
  readonly description: string;
  readonly input: Schema;
  /** The JSON Schema the model is shown, for tools that arrive with one (MCP); `input` must then validate against it. Default: `input` exported. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /** The server a tool from outside comes from (MCP): named in audit entries. */
  readonly server?: string;
  readonly risk: Risk;
  readonly capabilities?: readonly string[];
  readonly approval?: ApprovalMode;
  /** Default 30 000. */
  readonly timeoutMs?: number;
  /** Retries for infrastructure failures only. Default 0. */
  readonly retries?: number;
  /** True when running it twice would change the world twice; enables the replay guard. */
  readonly sideEffects?: boolean;
  /** What will happen, in plain words, for the approval card; `facts.timezone` is the configured default zone. */
  readonly describeForApproval?: (input: z.output<Schema>, facts: ApprovalFacts) => string;
  readonly execute: (input: z.output<Schema>, context: ToolContext) => Promise<ToolOutcome>;
};

/** Declares a tool; an identity helper that infers the input type from the zod schema. */
export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return definition;
}
