import type { ScriptedRequestBody } from './scripted-step.js';

/** The text of the last user message in an OpenAI or Anthropic request body ('' when none). */
export function findLastUserText(body: ScriptedRequestBody | undefined): string {
  const messages = body?.messages ?? [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const text = textOf(message.content);
    // Anthropic tool results travel as user messages; skip those that carry no text.
    if (text !== undefined) return text;
  }
  return '';
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (isTextPart(part)) texts.push(part.text);
  }
  return texts.length > 0 ? texts.join('') : undefined;
}

function isTextPart(part: unknown): part is { type: 'text'; text: string } {
  if (typeof part !== 'object' || part === null) return false;
  const candidate = part as { type?: unknown; text?: unknown };
  return candidate.type === 'text' && typeof candidate.text === 'string';
}
