import { describe, expect, it } from 'vitest';
import { toAnthropicConversation } from '../../../../src/agent/providers/anthropic/to-anthropic-conversation.js';

describe('toAnthropicConversation', () => {
  it('merges a user message that follows tool results into the same user turn, after the results', () => {
    const conversation = toAnthropicConversation([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'run', argumentsText: 'not json' }] },
      { role: 'tool', toolCallId: 't1', toolName: 'run', content: 'done' },
      { role: 'user', content: 'and now?' },
    ]);
    expect(conversation.system).toBeUndefined();
    expect(conversation.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'run', input: { raw: 'not json' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'done' },
          { type: 'text', text: 'and now?' },
        ],
      },
    ]);
  });
});
