/** A tool call the model proposed: its id, the tool's name, and the raw JSON arguments text. */
export type ToolCall = {
  readonly id: string;
  readonly name: string;
  /** Exactly as the model sent it; parsed and validated by the registry, never trusted. */
  readonly argumentsText: string;
};

/** One message of a conversation, in the provider-neutral shape the loop and the store use. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string };
