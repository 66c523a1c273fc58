import type { ModelRequest, ToolSchema } from '../model/model-port.js';

/** Characters per token of the estimate: English prose averages about four; the real count settles the difference. */
const charactersPerToken = 4;
/** What an image is assumed to cost before the provider says (a detailed 1024-pixel image is about this many). */
const tokensPerImage = 1000;
/** Per message: the role and framing the provider adds. */
const tokensPerMessage = 4;

/** The tool list of a turn is one array for all its calls: its size is measured once. */
const toolCharacters = new WeakMap<readonly ToolSchema[], number>();

function charactersOfTools(tools: readonly ToolSchema[]): number {
  if (tools.length === 0) return 0;
  let known = toolCharacters.get(tools);
  if (known === undefined) {
    known = tools.reduce((sum, tool) => sum + tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length, 0);
    toolCharacters.set(tools, known);
  }
  return known;
}

/**
 * A cheap upper-bound-ish guess of a request's input tokens, for reserving against budgets before the call:
 * characters / 4 of the messages (tool calls' arguments included) and of the tool schemas, plus a fixed
 * amount per image. Lengths only, no tokenizer: this runs before every model call. Pure.
 */
export function estimateInputTokens(request: Pick<ModelRequest, 'messages' | 'tools'>): number {
  let characters = charactersOfTools(request.tools);
  let extra = 0;
  for (const message of request.messages) {
    characters += message.content.length;
    extra += tokensPerMessage;
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      for (const call of message.toolCalls) characters += call.name.length + call.argumentsText.length;
    } else if (message.role === 'user' && message.images !== undefined) {
      extra += message.images.length * tokensPerImage;
    }
  }
  return Math.ceil(characters / charactersPerToken) + extra;
}
