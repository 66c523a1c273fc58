import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';

/** message: posts text to the current conversation right away, before the turn ends. */
export const messageTool = defineTool({
  name: 'message',
  description:
    'Post a message to this conversation right now, before your final answer. Use it for progress updates during long ' +
    'work or to deliver a result early. Do not use it for your final answer, which is sent automatically.',
  input: z.object({
    text: z.string().min(1).max(8_000).describe('The text to post, as the person should read it.'),
  }),
  risk: 'write',
  approval: 'never',
  sideEffects: true,
  describeForApproval: (input) => `Post to this chat: "${input.text}"`,
  execute: async (input, context) => {
    const delivery = await context.services.sendMessage(input.text);
    if (!delivery.ok) return { ok: false, kind: 'infrastructure', error: `The message was not delivered: ${delivery.error}` };
    return { ok: true, output: 'Message posted.', metadata: { messageId: delivery.messageId } };
  },
});
