import { messagesFor } from '../../src/i18n/messages.js';
import type { AgentUnderFault } from './agent-under-fault.js';

/** The sentence a person gets when their turn is parked. */
export const setAsideSentence = messagesFor('en').parked.setAside;

/**
 * The start after a turn's second death: waits for the set-aside sentence, then checks the agent still answers the
 * next message. Resolves to the running process, so its output can be read before the caller stops it.
 */
export async function startUntilParked(agent: AgentUnderFault, next: { readonly text: string; readonly answer: string }) {
  const running = await agent.start();
  await agent.waitForBotMessage((message) => message.text === setAsideSentence, 'the set-aside sentence');
  await agent.send(next.text);
  await agent.waitForBotMessage((message) => message.text === next.answer, 'the answer to the next message');
  return running;
}
