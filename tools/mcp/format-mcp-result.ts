import type { ToolOutcome } from '../../src/registry/tool-outcome.js';

/** One content block of a tool result, as far as the agent reads it (text, image, audio, resource, resource link). */
export type McpContentBlock = {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: { readonly uri?: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string };
};

/** What `tools/call` answers, as far as the agent reads it. */
export type McpCallResult = {
  readonly content?: readonly McpContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
};

/**
 * Turns a server's answer into what the model reads: text blocks as they are, other blocks described in one line
 * (an image's type and size; the providers here take text tool results only), structured content as JSON when
 * there is no text. `isError` is the tool saying no, shown to the model. Cutting long output is the registry's
 * job (16k characters, with a note). Pure.
 */
export function formatMcpResult(result: McpCallResult): ToolOutcome {
  const parts = (result.content ?? []).map(describeBlock);
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join('\n');
  if (result.isError) return { ok: false, error: text === '' ? 'The tool reported an error without details.' : text, kind: 'business' };
  return { ok: true, output: text === '' ? '(no output)' : text, metadata: { contentTypes: [...new Set((result.content ?? []).map((block) => block.type))] } };
}

function describeBlock(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? 'of unknown type'}, ${sizeOf(block.data)}: not shown to you; tell the person it was produced]`;
    case 'resource_link':
      return `[resource link: ${block.uri ?? '?'}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = block.resource ?? {};
      if (typeof resource.text === 'string') return `[resource ${resource.uri ?? '?'}]\n${resource.text}`;
      return `[resource ${resource.uri ?? '?'}, ${resource.mimeType ?? 'binary'}, ${sizeOf(resource.blob)}: not shown]`;
    }
    default:
      return `[${block.type} content: not shown]`;
  }
}

/** The decoded size of base64 data, in words a person reads. */
function sizeOf(base64: string | undefined): string {
  const bytes = base64 === undefined ? 0 : Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}
