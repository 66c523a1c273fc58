import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApprovalsService } from '../../../src/approvals/approvals-service.js';
import type { CallerQuestion } from '../../../src/approvals/caller-question.js';
import { createCallerQuestions } from '../../../src/approvals/caller-questions.js';
import { createGrantStore, type Grant } from '../../../src/approvals/grants.js';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import { mcpServeKeySchema } from '../../../src/config/mcp-serve-schema.js';
import type { Delivery, OutboundEvent } from '../../../src/events/outbound-event.js';
import { type CallerRequestRecord, type CallerRequests, createCallerRequests } from '../../../src/mcp-server/caller-requests.js';
import { createRateLimiter } from '../../../src/mcp-server/create-rate-limiter.js';
import { findServeKey } from '../../../src/mcp-server/find-serve-key.js';
import { callerOf } from '../../../src/mcp-server/serve-caller.js';
import { createAuditLog } from '../../../src/registry/audit-log.js';
import { createStore } from '../../../src/store/create-store.js';
import { createTemporaryFolder } from '../registry/registry-fixtures.js';

const key = mcpServeKeySchema.parse({ name: 'ci', key: 'a-serve-key-of-at-least-24-chars', user: '1001', chat: { channel: 'telegram', chatId: '1001' }, callsPerMinute: 3 });
const caller = callerOf(key);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function createHarness(delivery: () => Delivery = () => ({ ok: true, messageId: '7' })): Promise<{ requests: CallerRequests; sent: OutboundEvent[] }> {
  const folder = createTemporaryFolder('caller-requests');
  const store = await createStore({ dataDir: folder.path });
  cleanups.push(async () => {
    await store.close();
    folder.remove();
  });
  const audit = createAuditLog({ directory: join(folder.path, 'audit') });
  const sent: OutboundEvent[] = [];
  const requests = createCallerRequests({
    approvals: createApprovalsService({
      approvals: store.namespace<PendingApproval>('approvals'),
      index: store.namespace<string[]>('approvals-index'),
      grants: createGrantStore(store.namespace<Grant[]>('grants-session'), store.namespace<Grant[]>('grants-always')),
      audit,
      timeoutMs: 60_000,
    }),
    approvalRouteFor: (input) => ({ approvers: ['1001'], approverChannel: input.channel, targets: [input.origin] }),
    questions: createCallerQuestions({ questions: store.namespace<CallerQuestion>('caller-questions'), openByChat: store.namespace<string[]>('caller-questions-open'), audit, timeoutMs: 60_000 }),
    requests: store.namespace<CallerRequestRecord>('caller-requests'),
    requestIndex: store.namespace<string[]>('caller-requests-index'),
    outbox: {
      send: async (event) => {
        sent.push(event);
        return delivery();
      },
    },
    audit,
    limiter: createRateLimiter(),
    pollMs: 10,
    keepMs: 60_000,
  });
  return { requests, sent };
}

describe('caller requests (the tools of echo-agent as an MCP server)', () => {
  it('refuses past the key’s calls per minute, with when to retry', async () => {
    const { requests } = await createHarness();
    for (let call = 0; call < 3; call += 1) expect(await requests.listPending(caller)).toEqual({ status: 'ok', pending: [] });
    const refused = await requests.listPending(caller);
    expect(refused).toMatchObject({ status: 'refused' });
    expect(refused.status === 'refused' && (refused.retryAfterSeconds ?? 0) > 0).toBe(true);
  });

  it('one request id raises one record; reusing it for the other tool is refused', async () => {
    const { requests, sent } = await createHarness();
    const first = await requests.requestApproval(caller, { requestId: 'r1', action: 'Deploy', risk: 'exec', waitMs: 0 });
    const again = await requests.requestApproval(caller, { requestId: 'r1', action: 'Deploy', risk: 'exec', waitMs: 0 });
    expect([first.status, again.status]).toEqual(['pending', 'pending']);
    expect(sent.filter((event) => event.type === 'approval-requested')).toHaveLength(1);
    expect(await requests.ask(caller, { requestId: 'r1', question: 'Deploy?', options: [], waitMs: 0 })).toMatchObject({ status: 'refused' });
  });

  it('a question whose card could not be shown is refused and withdrawn; the same id raises it again later', async () => {
    let fail = true;
    const { requests, sent } = await createHarness(() => (fail ? { ok: false, error: 'chat not found', retryable: false } : { ok: true, messageId: '9' }));
    expect(await requests.ask(caller, { requestId: 'q', question: 'Ship?', options: ['yes'], waitMs: 0 })).toMatchObject({ status: 'refused' });
    expect(await requests.listPending(caller)).toEqual({ status: 'ok', pending: [] });
    fail = false;
    expect(await requests.ask(caller, { requestId: 'q', question: 'Ship?', options: ['yes'], waitMs: 0 })).toMatchObject({ status: 'pending', id: 'q' });
    expect(sent.filter((event) => event.type === 'question-asked')).toHaveLength(2);
  });

  it('finds a key only by its exact bearer secret', () => {
    expect(findServeKey(`Bearer ${key.key}`, [key])?.name).toBe('ci');
    expect(findServeKey(`bearer ${key.key}`, [key])?.name).toBe('ci');
    expect(findServeKey(`Bearer ${key.key}x`, [key])).toBeUndefined();
    expect(findServeKey(key.key, [key])).toBeUndefined();
    expect(findServeKey(undefined, [key])).toBeUndefined();
  });
});
