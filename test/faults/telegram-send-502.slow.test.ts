// Fault: the fault proxy answers the real agent's final-reply sendMessage with HTTP 502 (Telegram's front end
// failing; whether the message went out is unknown), once.
// Proves: the reply still arrives (at least once): a final answer is retried after an ambiguous failure.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { type AgentUnderFault, createAgentUnderFault, patientMs } from './agent-under-fault.js';

describe('a 502 from Telegram on the final reply', () => {
  let world: AgentUnderFault | undefined;
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('delivers the reply anyway', async () => {
    world = await createAgentUnderFault();
    const current = world;
    const answer = 'The final answer survives a 502.';
    current.model.enqueue({ text: answer });
    current.proxy.inject('sendMessage', { status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } }, { when: (body) => String(body.text ?? '').includes('survives a 502') });

    await current.start();
    await current.send('tell me something');
    await current.waitForBotMessage((message) => message.text === answer, 'the reply after the 502');
    const sends = await waitFor(() => {
      const calls = current.proxy.callsOf('sendMessage').filter((call) => String(call.body.text ?? '').includes('survives a 502'));
      return calls.length >= 2 ? calls : undefined;
    }, 'both send attempts', patientMs);
    expect(sends.map((call) => call.status)).toEqual([502, 200]);
    expect(current.botMessages().filter((message) => message.text === answer).length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
