import type { CallerIdentity } from '../approvals/caller-question.js';
import type { McpServeKey } from '../config/mcp-serve-schema.js';
import type { Target } from '../events/target.js';

/** The caller of one MCP request: the key it presented and what cards and records say about it. */
export type ServeCaller = {
  readonly key: McpServeKey;
  readonly identity: CallerIdentity;
  /** The key's chat: where its questions, cards and notifications go. */
  readonly target: Target;
};

/** The caller a key stands for; cards name `client` when configured, else the key's name. Pure. */
export function callerOf(key: McpServeKey): ServeCaller {
  return { key, identity: { keyName: key.name, client: key.client ?? key.name, userId: key.user }, target: { channel: key.chat.channel, chatId: key.chat.chatId } };
}
