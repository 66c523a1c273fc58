import { type Task, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aSchema } from '../../../src/config/a2a-schema.js';
import { createA2aPeerTool } from '../../../tools/a2a/a2a-peer-tool.js';
import type { PeerConnection, PeerReply } from '../../../tools/a2a/peer-connection.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

const peer = a2aSchema.parse({ peers: { research: { url: 'https://research.example.com', headers: { Authorization: 'Bearer research-key-0123456789' } } } }).peers.research;
if (peer === undefined) throw new Error('the peer did not parse');

function taskIn(state: TaskState, text: string, metadata?: Record<string, unknown>): Task {
  const parts = [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }];
  const message = { messageId: 'm', contextId: 'c-1', taskId: 't-1', role: 2, parts, metadata, extensions: [], referenceTaskIds: [] };
  const artifacts = state === TaskState.TASK_STATE_COMPLETED ? [{ artifactId: 'a', name: '', description: '', parts, metadata: undefined, extensions: [] }] : [];
  return { id: 't-1', contextId: 'c-1', status: { state, message, timestamp: undefined }, artifacts, history: [], metadata: undefined };
}

/** A peer whose replies are scripted, recording what the tool sent, read and canceled. */
function scriptedPeer(replies: { send?: PeerReply[]; get?: Task[] }) {
  const calls: string[] = [];
  const connection: PeerConnection = {
    async send(input) {
      calls.push(`send ${input.taskId ?? 'new'}: ${input.text}`);
      const reply = replies.send?.shift();
      if (reply === undefined) throw new Error('peer down');
      return reply;
    },
    async get(taskId) {
      calls.push(`get ${taskId}`);
      const task = replies.get?.shift();
      if (task === undefined) throw new Error('no task');
      return task;
    },
    async cancel(taskId) {
      calls.push(`cancel ${taskId}`);
    },
  };
  return { connection, calls };
}

describe('a2a__<peer>', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('is governed like an MCP tool: named a2a__<peer>, risk from config (write: always asks), side effects guarded', () => {
    const tool = createA2aPeerTool('research', peer, scriptedPeer({}).connection);
    expect(tool).toMatchObject({ name: 'a2a__research', risk: 'write', approval: 'always', sideEffects: true, server: 'a2a:research', timeoutMs: 300_000 });
    expect(tool.describeForApproval?.({ message: 'find papers' }, { timezone: 'UTC' })).toContain('research.example.com');
  });

  it("answers with the finished task's text and its id", async () => {
    fake = await createFakeToolServices();
    const peerScript = scriptedPeer({ send: [{ kind: 'task', task: taskIn(TaskState.TASK_STATE_COMPLETED, 'three papers') }] });
    const outcome = await createA2aPeerTool('research', peer, peerScript.connection).execute({ message: 'find papers' }, fake.context);
    expect(outcome).toMatchObject({ ok: true, output: 'three papers\n\n[task t-1 of the agent "research"]' });
  });

  it('a failed task or an unreachable peer is a failure the model reads, not a throw', async () => {
    fake = await createFakeToolServices();
    const failed = await createA2aPeerTool('research', peer, scriptedPeer({ send: [{ kind: 'task', task: taskIn(TaskState.TASK_STATE_FAILED, 'no access') }] }).connection).execute({ message: 'x' }, fake.context);
    expect(failed).toMatchObject({ ok: false, kind: 'business' });
    expect(failed.ok ? '' : failed.error).toContain('(failed): no access');
    const down = await createA2aPeerTool('research', peer, scriptedPeer({}).connection).execute({ message: 'x' }, fake.context);
    expect(down).toMatchObject({ ok: false, kind: 'infrastructure' });
  });

  it("waits while an echo-agent peer waits for its own approver, then answers with the result", async () => {
    fake = await createFakeToolServices();
    const peerScript = scriptedPeer({
      send: [{ kind: 'task', task: taskIn(TaskState.TASK_STATE_INPUT_REQUIRED, 'Waiting for a person', { 'echo-agent/waiting-for': 'approver' }) }],
      get: [taskIn(TaskState.TASK_STATE_COMPLETED, 'approved and done')],
    });
    const outcome = await createA2aPeerTool('research', peer, peerScript.connection).execute({ message: 'publish' }, fake.context);
    expect(outcome).toMatchObject({ ok: true });
    expect(peerScript.calls).toEqual(['send new: publish', 'get t-1']);
  });

  it("asks the person the peer's own question, sends the answer on the same task; a declined question cancels the task", async () => {
    fake = await createFakeToolServices();
    const peerScript = scriptedPeer({ send: [{ kind: 'task', task: taskIn(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which year?') }, { kind: 'task', task: taskIn(TaskState.TASK_STATE_COMPLETED, 'papers of 2024') }] });
    const tool = createA2aPeerTool('research', peer, peerScript.connection);
    const asked = await tool.execute({ message: 'find papers' }, fake.context);
    if (!asked.ok || asked.awaitElicitation === undefined) throw new Error(`expected a question, got ${JSON.stringify(asked)}`);
    expect(asked.awaitElicitation).toMatchObject({ server: 'research', asker: 'agent', message: 'Which year?' });
    const answer = { elicitationId: asked.awaitElicitation.elicitationId, fingerprint: asked.awaitElicitation.fingerprint, action: 'accept' as const, content: { answer: '2024' } };
    const resumed = await tool.execute({ message: 'find papers' }, { ...fake.context, elicitationAnswer: answer });
    expect(resumed).toMatchObject({ ok: true });
    expect(peerScript.calls).toEqual(['send new: find papers', 'send t-1: 2024']);

    const again = scriptedPeer({ send: [{ kind: 'task', task: taskIn(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which month?') }] });
    const other = createA2aPeerTool('research', peer, again.connection);
    const question = await other.execute({ message: 'more' }, fake.context);
    if (!question.ok || question.awaitElicitation === undefined) throw new Error('expected a question');
    const declined = await other.execute({ message: 'more' }, { ...fake.context, elicitationAnswer: { elicitationId: 'x', fingerprint: question.awaitElicitation.fingerprint, action: 'decline' } });
    expect(declined).toMatchObject({ ok: false, kind: 'business' });
    expect(again.calls).toEqual(['send new: more', 'cancel t-1']);
  });

  it('a call run again after a crash looks at the task it started instead of sending it twice', async () => {
    fake = await createFakeToolServices();
    const first = scriptedPeer({ send: [{ kind: 'task', task: taskIn(TaskState.TASK_STATE_WORKING, 'working') }] });
    const stillRunning = await createA2aPeerTool('research', peer, first.connection).execute({ message: 'long job' }, fake.context);
    expect(stillRunning).toMatchObject({ ok: false, kind: 'business' });
    const second = scriptedPeer({ get: [taskIn(TaskState.TASK_STATE_COMPLETED, 'long job done')] });
    const rerun = await createA2aPeerTool('research', peer, second.connection).execute({ message: 'long job' }, fake.context);
    expect(rerun).toMatchObject({ ok: true });
    expect(second.calls).toEqual(['get t-1']);
  });
});
