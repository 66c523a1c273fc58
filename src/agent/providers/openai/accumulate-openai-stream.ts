import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ToolCall } from '../../../model/chat-message.js';
import type { ModelAnswer, ModelUsage } from '../../../model/model-port.js';
import { toFinishReason } from './to-finish-reason.js';
import { toOpenAiUsage } from './to-openai-usage.js';

type PartialToolCall = { id: string; name: string; argumentsText: string };

/** Reads a streamed chat completion: forwards text deltas and reassembles tool calls from their pieces. */
export async function accumulateOpenAiStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  options: { readonly onTextDelta?: (delta: string) => void; readonly onChunk?: () => void },
): Promise<ModelAnswer> {
  let text = '';
  let finishReason: string | null | undefined;
  const partials = new Map<number, PartialToolCall>();
  let usage: ModelUsage | undefined;
  for await (const chunk of stream) {
    options.onChunk?.();
    // With stream_options.include_usage the last chunk carries the usage and no choices.
    usage = toOpenAiUsage(chunk.usage) ?? usage;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const content = choice.delta.content;
    if (typeof content === 'string' && content !== '') {
      text += content;
      options.onTextDelta?.(content);
    }
    for (const delta of choice.delta.tool_calls ?? []) {
      const partial = partials.get(delta.index) ?? { id: '', name: '', argumentsText: '' };
      partials.set(delta.index, partial);
      if (delta.id) partial.id = delta.id;
      const name = delta.function?.name;
      // OpenAI sends the name once; some compatible servers repeat it in every chunk, others split it.
      if (name && name !== partial.name) partial.name += name;
      if (delta.function?.arguments) partial.argumentsText += delta.function.arguments;
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const toolCalls: ToolCall[] = [...partials.entries()]
    .sort(([left], [right]) => left - right)
    .map(([index, partial]) => ({
      // Some servers omit ids; the loop still needs one to pair the result with the call.
      id: partial.id === '' ? `call_${index}` : partial.id,
      name: partial.name,
      argumentsText: partial.argumentsText,
    }));
  return { text, toolCalls, finishReason: toFinishReason(finishReason, toolCalls.length > 0), ...(usage === undefined ? {} : { usage }) };
}
