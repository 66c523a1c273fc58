import type { ChatMessage } from '../model/chat-message.js';

/** Size of a message for the history budget: its text plus its tool-call names and arguments. Pure. */
export function messageSize(message: ChatMessage): number {
  if (message.role === 'assistant') return message.content.length + (message.toolCalls ?? []).reduce((total, call) => total + call.argumentsText.length + call.name.length, 0);
  return message.content.length;
}

/** Size of a list of messages for the history budget. Pure. */
export function messagesSize(messages: readonly ChatMessage[]): number {
  return messages.reduce((total, message) => total + messageSize(message), 0);
}
