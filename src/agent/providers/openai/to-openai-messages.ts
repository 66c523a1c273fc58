import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { assertNever } from '../../../events/assert-never.js';
import type { ChatMessage, ImageInput } from '../../../model/chat-message.js';
import { missingImageNote } from '../../../model/missing-image-note.js';
import type { ToolSchema } from '../../../model/model-port.js';

/** Maps provider-neutral messages to OpenAI chat messages (tool calls → `tool_calls`, tool results → role `tool`). */
export function toOpenAiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.images?.length ? userParts(message.content, message.images) : message.content };
      case 'assistant': {
        const toolCalls = message.toolCalls ?? [];
        if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          // Some OpenAI-compatible servers reject an empty string next to tool calls; null is the documented form.
          content: message.content === '' ? null : message.content,
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.argumentsText },
          })),
        };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
      default:
        return assertNever(message, 'chat message role');
    }
  });
}

/** A user message with images: the text first, then each image as a data URL (an image not loaded is named in text). */
function userParts(text: string, images: readonly ImageInput[]): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = text === '' ? [] : [{ type: 'text', text }];
  for (const image of images) {
    if (image.data === undefined) parts.push({ type: 'text', text: missingImageNote(image) });
    else parts.push({ type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } });
  }
  return parts;
}

/** Maps tool schemas to OpenAI function tools. */
export function toOpenAiTools(tools: readonly ToolSchema[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
