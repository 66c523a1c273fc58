import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { assertNever } from '../../../events/assert-never.js';
import type { ChatMessage, ImageInput } from '../../../model/chat-message.js';
import { missingImageNote } from '../../../model/missing-image-note.js';
import type { ToolSchema } from '../../../model/model-port.js';

/** The parts of a Messages API request that come from the conversation. */
export type AnthropicConversation = {
  readonly system: string | undefined;
  readonly messages: MessageParam[];
};

type Turn = { role: 'user' | 'assistant'; content: ContentBlockParam[] };

/**
 * Maps provider-neutral messages to the Messages API: system messages join the `system` param,
 * tool calls become `tool_use` blocks, tool results `tool_result` blocks in a user turn, and
 * consecutive turns of the same role merge (the API wants user and assistant to alternate).
 */
export function toAnthropicConversation(messages: readonly ChatMessage[]): AnthropicConversation {
  const systemParts: string[] = [];
  const turns: Turn[] = [];
  const append = (role: Turn['role'], blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        systemParts.push(message.content);
        break;
      case 'user':
        append('user', [...imageBlocks(message.images ?? []), ...textBlocks(message.content)]);
        break;
      case 'assistant':
        append('assistant', [
          ...textBlocks(message.content),
          ...(message.toolCalls ?? []).map(
            (call): ContentBlockParam => ({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.argumentsText) }),
          ),
        ]);
        break;
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }]);
        break;
      default:
        assertNever(message, 'chat message role');
    }
  }
  return {
    system: systemParts.length > 0 ? systemParts.join('\n\n') : undefined,
    messages: turns.map((turn) => ({ role: turn.role, content: turn.content })),
  };
}

/** Maps tool schemas to Messages API tools (`input_schema`). */
export function toAnthropicTools(tools: readonly ToolSchema[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: 'object' },
  }));
}

// Images first, then the text about them (the order Anthropic recommends); an image not loaded is named in text.
function imageBlocks(images: readonly ImageInput[]): ContentBlockParam[] {
  return images.map((image): ContentBlockParam => {
    if (image.data === undefined) return { type: 'text', text: missingImageNote(image) };
    return { type: 'image', source: { type: 'base64', media_type: image.mediaType as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp', data: image.data } };
  });
}

// The API rejects empty text blocks.
function textBlocks(text: string): ContentBlockParam[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

// tool_use input must be an object; arguments a model sent that do not parse are kept under `raw`.
function parseInput(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText === '' ? '{}' : argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { raw: argumentsText };
}
