import type { ElicitationForm } from './elicitation.js';

/** What a tool's execute returns. Expected failures are values. */
export type ToolOutcome =
  | {
      readonly ok: true;
      readonly output: string;
      readonly metadata?: Readonly<Record<string, unknown>>;
      /** ask_user: suspend the turn and wait for the person to pick an option. */
      readonly awaitAnswer?: { readonly question: string; readonly options: readonly string[] };
      /** An MCP server asked the person for input during the call: suspend the turn until they answer. */
      readonly awaitElicitation?: ElicitationForm;
    }
  | {
      readonly ok: false;
      readonly error: string;
      /** `business`: the tool said no (shown to the model). `infrastructure`: retried when retries allow. */
      readonly kind?: 'business' | 'infrastructure';
    };

/** Why a tool call did not succeed. */
export type ToolErrorKind = 'validation' | 'denied' | 'timeout' | 'business' | 'internal';

/** What the registry hands back to the loop, and the loop feeds to the model. */
export type ToolResult = {
  readonly ok: boolean;
  readonly output: string;
  readonly error?: string;
  readonly errorKind?: ToolErrorKind;
  readonly metadata: Readonly<Record<string, unknown>>;
};
