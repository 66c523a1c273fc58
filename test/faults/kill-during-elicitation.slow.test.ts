// Fault: SIGKILL of the real agent process while an MCP server's elicitation waits for the person.
// The server's request lived on the connection the crash cut (the stdio server went with the agent), so it is gone;
// what survives is the suspended turn in the store and the question in the chat.
// Proves: after the restart, the person's answer (a button on the question sent before the crash) resumes the turn;
// the call is issued again with the answer ready, the server's repeated request is answered from it, and the call
// completes exactly once (one `completed` line in the server's log), with one continuation in the chat.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { createElicitationServerLog, type ElicitationServerLog, elicitationYaml } from '../scenarios/mcp/elicitation-test-server.js';
import { type AgentUnderFault, createAgentUnderFault, endsWithToolResult, patientMs } from './agent-under-fault.js';

describe('SIGKILL while an MCP elicitation is pending', () => {
  let world: AgentUnderFault | undefined;
  let log: ElicitationServerLog | undefined;
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await world?.close();
    world = undefined;
    log?.remove();
  });

  it('the answer after the restart completes the tool call once and continues the turn once', async () => {
    const serverLog = createElicitationServerLog();
    log = serverLog;
    world = await createAgentUnderFault({ yaml: elicitationYaml({ log: serverLog }) });
    const current = world;
    current.model.enqueue({ toolCalls: [{ name: 'asker__confirm_transfer', arguments: { amount: 9 } }] });
    current.model.setFallback((body, context) => {
      const last = body.messages?.at(-1) as { content?: unknown } | undefined;
      return endsWithToolResult(body) ? { text: `Continuation: ${String(last?.content)}` } : { text: `echo: ${context.lastUserText}` };
    });

    await current.start();
    await current.send('send 9 EUR');
    const question = await current.waitForBotMessage((message) => /Transfer 9 EUR\?/.test(message.text) && (message.keyboard?.length ?? 0) > 0, 'the question');
    expect(serverLog.entries().filter((entry) => entry.event === 'started')).toHaveLength(1);
    await current.kill();

    await current.start();
    await current.press(question, /^Yes$/);
    await current.waitForBotMessage((message) => message.text === 'Continuation: transferred 9 EUR', 'the continuation after the restart', patientMs);
    await current.send('ping');
    await current.waitForBotMessage((message) => message.text === 'echo: ping', 'the answer to the next message');
    await current.stop();

    const completed = serverLog.entries().filter((entry) => entry.event === 'completed');
    expect(completed).toEqual([expect.objectContaining({ tool: 'confirm_transfer', action: 'accept', content: { confirm: true } })]);
    // The server ran the tool twice (the first run's request died with the connection), and completed it once.
    const started = serverLog.entries().filter((entry) => entry.event === 'started');
    expect(started).toHaveLength(2);
    expect(completed[0]?.pid).toBe(started[1]?.pid);
    expect(current.botMessages().filter((message) => message.text === 'Continuation: transferred 9 EUR')).toHaveLength(1);
  }, 120_000);
});
