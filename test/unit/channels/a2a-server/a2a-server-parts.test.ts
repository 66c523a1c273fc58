import { type Task, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { a2aConfig } from '../../../../channels/a2a-server/a2a-config.js';
import { findBearerKey } from '../../../../src/gateway/find-bearer-key.js';
import { describeA2aServer } from '../../../../channels/a2a-server/a2a-server-doctor.js';
import { baseUrlOf } from '../../../../channels/a2a-server/agent-card-route.js';
import { applyChange, changeFor, isFinalState, waitingForApproverKey } from '../../../../channels/a2a-server/task-events.js';
import { taskChatId, taskIdOfChat, taskToEvent } from '../../../../channels/a2a-server/to-event.js';
import { createTaskTurns } from '../../../../channels/a2a-server/task-turns.js';
import { trustFieldsIn } from '../../../../channels/a2a-server/trust-fields.js';

const key = (name: string, secret: string) => ({ name, secret, callsPerMinute: 30 });
const now = new Date('2026-12-02T10:00:00Z');

describe('trust fields in an A2A request', () => {
  it('names every metadata key that would set who the caller is or what it may do, in any spelling', () => {
    const body = { params: { metadata: { Origin: 'user', tool_scope: 'x', note: 'fine' }, message: { metadata: { 'allowed-tools': ['exec'], unattended: false } } } };
    expect(trustFieldsIn(body)).toEqual(['params.metadata.Origin', 'params.metadata.tool_scope', 'params.message.metadata.allowed-tools', 'params.message.metadata.unattended']);
  });

  it('finds none in ordinary metadata, or in a body without params', () => {
    expect(trustFieldsIn({ params: { metadata: { note: 'hi' }, message: { metadata: { priority: 1 } } } })).toEqual([]);
    expect(trustFieldsIn({ method: 'tasks/get' })).toEqual([]);
    expect(trustFieldsIn('not an object')).toEqual([]);
  });
});

describe('the A2A keys, checked by the gateway\'s bearer-key check', () => {
  const keys = [key('alpha', 'alpha-secret-0123456789abcdefgh'), key('beta', 'beta-secret-0123456789abcdefghij')];
  it('finds the key a bearer header names, and says whether a key was missing or wrong', () => {
    expect(findBearerKey('Bearer beta-secret-0123456789abcdefghij', keys, (entry) => entry.secret)).toMatchObject({ ok: true, key: { name: 'beta' } });
    expect(findBearerKey(undefined, keys, (entry) => entry.secret)).toEqual({ ok: false, reason: 'missing' });
    expect(findBearerKey('Basic abc', keys, (entry) => entry.secret)).toEqual({ ok: false, reason: 'missing' });
    expect(findBearerKey('Bearer alpha-secret-0123456789abcdefgX', keys, (entry) => entry.secret)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('a task event', () => {
  it('is unattended, from another system, billed to the key and in its caller scope, in the task’s own chat', () => {
    const event = taskToEvent({ channel: 'a2a-server', runId: 'run1', owner: 'planner', taskId: 't-1', text: 'do it', now });
    expect(event).toMatchObject({ origin: 'system', unattended: true, chatId: 'planner/t-1', sessionKey: 'a2a-server:planner/t-1', billedTo: 'planner', toolScope: 'a2a-server:planner', sender: { id: 'a2a-server:planner' } });
    expect(taskIdOfChat(taskChatId('planner', 't-1'))).toBe('t-1');
    expect(taskIdOfChat('no-slash')).toBeUndefined();
  });
});

describe('task outcomes', () => {
  const task: Task = { id: 't-1', contextId: 'c-1', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, artifacts: [], history: [], metadata: undefined };
  const ids = { taskId: 't-1', contextId: 'c-1' };

  it('an answer completes the task with the answer artifact; a failure fails it; a person waited for is input-required, marked', () => {
    expect(changeFor({ kind: 'answered', text: 'done', failed: false }, ids, now)).toMatchObject({ status: { state: TaskState.TASK_STATE_COMPLETED }, artifact: { artifactId: 'answer' } });
    expect(changeFor({ kind: 'answered', text: 'no model', failed: true }, ids, now).artifact).toBeUndefined();
    const waiting = changeFor({ kind: 'needs-person', text: 'Waiting' }, ids, now);
    expect(waiting.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(waiting.status.message?.metadata?.[waitingForApproverKey]).toBe('approver');
  });

  it('applied to a stored task: the earlier status message goes to the history, the answer replaces any earlier one', () => {
    const waiting = applyChange(task, changeFor({ kind: 'needs-person', text: 'Waiting' }, ids, now));
    const done = applyChange(applyChange(waiting, changeFor({ kind: 'answered', text: 'first', failed: false }, ids, now)), changeFor({ kind: 'answered', text: 'second', failed: false }, ids, now));
    expect(done.history).toHaveLength(2);
    expect(done.artifacts).toHaveLength(1);
    expect(isFinalState(done.status?.state)).toBe(true);
    expect(isFinalState(waiting.status?.state)).toBe(false);
  });
});

describe('the A2A server’s doctor line and card URL', () => {
  const settings = (keys: ReturnType<typeof key>[]) => ({ ...a2aConfig.schema.parse({}), keys });
  it('off without keys, fails on a secret or a name given twice, names the keys otherwise (never a secret)', () => {
    expect(describeA2aServer(settings([])).status).toBe('off');
    expect(describeA2aServer(settings([key('a', 'same-secret-0123456789abcdefgh'), key('b', 'same-secret-0123456789abcdefgh')])).status).toBe('fail');
    expect(describeA2aServer(settings([key('a', 'one-secret-0123456789abcdefghi'), key('a', 'two-secret-0123456789abcdefghi')])).status).toBe('fail');
    const on = describeA2aServer(settings([key('planner', 'one-secret-0123456789abcdefghi')]));
    expect(on.status).toBe('ok');
    expect(on.text).toContain('planner');
    expect(on.text).not.toContain('one-secret');
  });

  it('the card URL comes from the Host asked, https only when the proxy says so, and a strange Host is not echoed', () => {
    expect(baseUrlOf({ headers: { host: 'agent.example.com:8787' } })).toBe('http://agent.example.com:8787');
    expect(baseUrlOf({ headers: { host: 'agent.example.com', 'x-forwarded-proto': 'https' } })).toBe('https://agent.example.com');
    expect(baseUrlOf({ headers: { host: 'evil.com/<script>' } })).toBe('http://localhost');
  });
});

describe('waiting executors', () => {
  it('hand an outcome to every executor waiting on the chat, once; none waiting says so; a shutdown cancels the waits', async () => {
    const turns = createTaskTurns();
    const first = turns.wait('k/t-1');
    const second = turns.wait('k/t-1');
    expect(turns.settle('k/t-1', { kind: 'answered', text: 'done', failed: false })).toBe(true);
    expect(await first).toEqual({ kind: 'answered', text: 'done', failed: false });
    expect(await second).toEqual({ kind: 'answered', text: 'done', failed: false });
    expect(turns.settle('k/t-1', { kind: 'canceled' })).toBe(false);
    const stopped = turns.wait('k/t-2');
    turns.clear();
    expect(await stopped).toEqual({ kind: 'canceled' });
  });
});
