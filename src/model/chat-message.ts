/** A tool call the model proposed: its id, the tool's name, and the raw JSON arguments text. */
export type ToolCall = {
  readonly id: string;
  readonly name: string;
  /** Exactly as the model sent it; parsed and validated by the registry, never trusted. */
  readonly argumentsText: string;
};

/**
 * An image given to the model with a user message. `file` names the stored attachment it came from (the
 * history keeps only that); `data` is its bytes as base64, filled in for one request and never stored.
 */
export type ImageInput = {
  readonly mediaType: string;
  readonly file: string;
  readonly name?: string;
  readonly data?: string;
};

/** One message of a conversation, in the provider-neutral shape the loop and the store use. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string; readonly images?: readonly ImageInput[] }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly toolName: string; readonly content: string };
