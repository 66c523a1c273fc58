import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/create-logger.js';
import type { AuditEntry } from '../../../src/registry/audit-log.js';
import type { ElicitationForm } from '../../../src/registry/elicitation.js';
import type { ToolOutcome } from '../../../src/registry/tool-outcome.js';
import { createElicitationBroker, type ElicitationResponse, type McpCallContext } from '../../../tools/mcp/elicitation-broker.js';

const form = { message: 'Which account?', requestedSchema: { type: 'object', properties: { account: { type: 'string', enum: ['a', 'b'] } }, required: ['account'] } };

function contextFor(overrides: Partial<McpCallContext> = {}): McpCallContext & { sent: string[] } {
  const sent: string[] = [];
  return { traceId: 't', sessionKey: 's', userId: 'u', channel: 'c', unattended: false, risk: 'read_only', tool: 'bank__pay', sendMessage: async (text) => sent.push(text), sent, ...overrides };
}

/** A fake server call: asks `form` through the broker's handler, then completes with what it received. */
function serverCall(broker: ReturnType<typeof createElicitationBroker>, received: ElicitationResponse[]) {
  return async (signal: AbortSignal): Promise<ToolOutcome> => {
    await Promise.resolve();
    const answer = await broker.handle(form);
    received.push(answer);
    if (signal.aborted) return { ok: false, error: 'The call was stopped.', kind: 'business' };
    return { ok: true, output: `done: ${JSON.stringify(answer)}` };
  };
}

async function brokerWithAudit() {
  const audit: AuditEntry[] = [];
  const broker = createElicitationBroker({ server: 'bank', audit: (entry) => audit.push(entry), logger: await createLogger({ level: 'silent', pretty: false }), liveWaitMs: 60_000 });
  return { broker, audit };
}

describe('the elicitation broker (ties elicitation/create to its call)', () => {
  it('suspends the call at the request and completes the same call once with the live answer', async () => {
    const { broker, audit } = await brokerWithAudit();
    const received: ElicitationResponse[] = [];
    const first = await broker.run({ context: contextFor(), signal: new AbortController().signal, start: serverCall(broker, received) });
    expect(first.ok && first.awaitElicitation).toMatchObject({ server: 'bank', message: 'Which account?', risk: 'read_only' });
    const pending = (first as { awaitElicitation: ElicitationForm }).awaitElicitation;
    const resumed = await broker.run({ context: contextFor(), signal: new AbortController().signal, answer: { elicitationId: pending.elicitationId, fingerprint: pending.fingerprint, action: 'accept', content: { account: 'b' } }, start: () => Promise.reject(new Error('must not start again')) });
    expect(resumed).toEqual({ ok: true, output: 'done: {"action":"accept","content":{"account":"b"}}' });
    expect(received).toEqual([{ action: 'accept', content: { account: 'b' } }]);
    expect(audit.map((entry) => [entry.kind, entry.outcome])).toEqual([['elicitation-requested', 'form'], ['elicitation-answered', 'accept']]);
  });

  it('answers a re-issued call (after a restart) from the stored answer when the server asks the same thing', async () => {
    const { broker, audit } = await brokerWithAudit();
    const received: ElicitationResponse[] = [];
    // The fingerprint is canonical JSON of the message and schema (keys sorted), as stored with the answer.
    const canonical = { elicitationId: 'gone', action: 'decline' as const, fingerprint: '{"message":"Which account?","requestedSchema":{"properties":{"account":{"enum":["a","b"],"type":"string"}},"required":["account"],"type":"object"}}' };
    const outcome = await broker.run({ context: contextFor(), signal: new AbortController().signal, answer: canonical, start: serverCall(broker, received) });
    expect(outcome).toEqual({ ok: true, output: 'done: {"action":"decline"}' });
    expect(received).toEqual([{ action: 'decline' }]);
    expect(audit.at(-1)).toMatchObject({ kind: 'elicitation-answered', outcome: 'decline', reason: 'stored answer, the call re-issued after a restart' });
  });

  it('declines in an unattended turn, and when the request cannot be tied to one call', async () => {
    const { broker, audit } = await brokerWithAudit();
    const received: ElicitationResponse[] = [];
    const outcome = await broker.run({ context: contextFor({ unattended: true }), signal: new AbortController().signal, start: serverCall(broker, received) });
    expect(outcome).toEqual({ ok: true, output: 'done: {"action":"decline"}' });
    expect(await broker.handle(form)).toEqual({ action: 'decline' });
    expect(audit.map((entry) => entry.reason)).toEqual([undefined, 'unattended turn: nobody is there to answer', '0 calls under way: cannot tell which asked']);
  });

  it('shows a URL-mode request in the chat with the server\'s name and accepts without asking', async () => {
    const { broker } = await brokerWithAudit();
    const context = contextFor();
    let answer: ElicitationResponse | undefined;
    const outcome = await broker.run({
      context,
      signal: new AbortController().signal,
      start: async () => {
        await Promise.resolve();
        answer = await broker.handle({ mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in' });
        return { ok: true, output: 'linked' };
      },
    });
    expect(outcome).toEqual({ ok: true, output: 'linked' });
    expect(answer).toEqual({ action: 'accept' });
    expect(context.sent).toEqual(['The MCP server "bank" asks you to open this link: https://example.com/sign-in\nSign in']);
  });

  it('cancels the call, then the waiting request, when the connection closes', async () => {
    const { broker } = await brokerWithAudit();
    const received: ElicitationResponse[] = [];
    const first = await broker.run({ context: contextFor(), signal: new AbortController().signal, start: serverCall(broker, received) });
    expect(first.ok && first.awaitElicitation).toBeDefined();
    broker.close();
    // Every promise callback queued by the close runs before the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([{ action: 'cancel' }]);
  });
});
