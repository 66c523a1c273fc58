import { ProtocolError } from '@modelcontextprotocol/client';
import type { AuditEntry } from '../../src/registry/audit-log.js';

/** A server's `sampling/createMessage`, in the core's terms: text only. */
export type McpSampleRequest = {
  readonly server: string;
  readonly systemPrompt?: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
  readonly maxTokens: number;
};

/** Runs a sampling request through the agent's model (metered and budgeted by the composition root). */
export type McpSampler = (request: McpSampleRequest) => Promise<{ readonly ok: true; readonly text: string; readonly model: string } | { readonly ok: false; readonly error: string }>;

/** What the SDK hands the handler, as far as it is read. */
type CreateMessageParams = {
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: unknown }[];
};

/** The longest answer a server may ask for, whatever its `maxTokens`. */
const maxSamplingTokens = 2000;
/** The longest prompt text taken from a server (characters). */
const maxPromptChars = 50_000;

/**
 * The handler of `sampling/createMessage` for one server whose config says `sampling: true`: text in, text out,
 * through the agent's model, audited (`sampling-requested`). A refusal (budget, model down) is a JSON-RPC error the
 * server reads.
 */
export function createSamplingHandler(options: { readonly server: string; readonly sample: McpSampler; readonly audit: (entry: AuditEntry) => void }) {
  return async (params: CreateMessageParams) => {
    const messages = params.messages.map((message) => ({ role: message.role, text: textOf(message.content) }));
    const size = messages.reduce((total, message) => total + message.text.length, params.systemPrompt?.length ?? 0);
    if (size > maxPromptChars) {
      options.audit({ kind: 'sampling-requested', server: options.server, outcome: 'refused', reason: `prompt of ${size} characters (over ${maxPromptChars})` });
      throw new ProtocolError(-32602, `The prompt is over ${maxPromptChars} characters.`);
    }
    const maxTokens = Math.max(1, Math.min(params.maxTokens, maxSamplingTokens));
    const result = await options.sample({ server: options.server, messages, maxTokens, ...(params.systemPrompt === undefined ? {} : { systemPrompt: params.systemPrompt }) });
    options.audit({ kind: 'sampling-requested', server: options.server, outcome: result.ok ? 'ok' : 'refused', arguments: { messages: messages.length, maxTokens }, ...(result.ok ? { model: result.model } : { reason: result.error }) });
    if (!result.ok) throw new ProtocolError(-32603, `The agent did not sample: ${result.error}`);
    return { role: 'assistant' as const, content: { type: 'text' as const, text: result.text }, model: result.model, stopReason: 'endTurn' };
  };
}

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) => {
      const typed = block as { type?: unknown; text?: unknown };
      return typed.type === 'text' && typeof typed.text === 'string' ? typed.text : `[${String(typed.type ?? 'content')} omitted]`;
    })
    .join('\n');
}
