import { type Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { A2aPeer } from '../../src/config/a2a-schema.js';
import { createShortId } from '../../src/events/create-id.js';
import { canonicalJson } from '../../src/registry/canonical-json.js';
import type { ToolDefinition } from '../../src/registry/define-tool.js';
import type { ElicitationForm } from '../../src/registry/elicitation.js';
import type { ToolContext } from '../../src/registry/tool-context.js';
import type { ToolOutcome } from '../../src/registry/tool-outcome.js';
import { createPeerConnection, type PeerConnection, type PeerReply } from './peer-connection.js';
import { standingOf, textOfMessage, textOfTask } from './task-text.js';

/** The prefix of every peer tool: `a2a__<peer>` (offered only through tools.allow / alsoAllow, like MCP tools). */
export const a2aToolPrefix = 'a2a__';

/**
 * A call's task at the peer: kept by the call's idempotency key while it runs (a call re-run after a crash looks at it
 * instead of starting anew), and by the question's fingerprint while it waits for the person (the resumed call
 * finds it by the answer's fingerprint).
 */
type PeerCall = { readonly taskId: string; readonly contextId: string };

/** How often a task waiting for the peer's approvers is looked at. */
const peerPollMs = 1000;

/** How long a call's record is kept. */
const peerCallTtlMs = 7 * 24 * 60 * 60 * 1000;

const peerInput = z.object({ message: z.string().trim().min(1).max(32_000).describe('The task for the other agent, in plain words, with everything it needs to know.') });

/**
 * The governed tool `a2a__<name>` for one configured peer: it sends the model's message as an A2A task through the
 * SDK's client and waits (up to the peer's timeout) for the task to finish. A peer that asks for input
 * (`input-required`) is shown to the person in the chat like an MCP server's question; their answer goes back on the
 * same task when the call resumes. The risk comes from config: above read_only every call asks a person first.
 */
export function createA2aPeerTool(name: string, peer: A2aPeer, connection: PeerConnection = createPeerConnection(peer)): ToolDefinition<typeof peerInput> {
  const timeoutMs = peer.timeoutSeconds * 1000;
  const server = `a2a:${name}`;
  return {
    name: `${a2aToolPrefix}${name}`,
    description: `${peer.description ?? `Hand a task to the agent "${name}" over A2A and get its answer.`} (the A2A peer "${name}")`,
    input: peerInput,
    server,
    risk: peer.risk,
    approval: peer.risk === 'read_only' ? 'by-risk' : 'always',
    sideEffects: peer.risk !== 'read_only',
    timeoutMs,
    describeForApproval: (input) => `Send the agent "${name}" (${new URL(peer.url).host}) this task over A2A: "${input.message.slice(0, 500)}". Risk ${peer.risk} (from config).`,
    execute: (input, context) => callPeer({ name, peer, connection, server }, input.message, context),
  };
}

/** Runs one call: a new task, more input for a task waiting on the person, or a look at a task a crash interrupted. */
async function callPeer(tool: { readonly name: string; readonly peer: A2aPeer; readonly connection: PeerConnection; readonly server: string }, message: string, context: ToolContext): Promise<ToolOutcome> {
  const calls = context.services.state<PeerCall>('a2a-peer-calls');
  const answer = context.elicitationAnswer;
  const asked = answer === undefined ? undefined : await calls.get(questionKey(answer.fingerprint));
  const saved = await calls.get(context.idempotencyKey);
  const signal = context.signal;
  try {
    let reply: PeerReply;
    if (answer !== undefined && asked !== undefined) {
      await calls.delete(questionKey(answer.fingerprint));
      if (answer.action !== 'accept') {
        await tool.connection.cancel(asked.taskId, signal).catch(() => undefined);
        return { ok: false, kind: 'business', error: `The person did not answer the agent "${tool.name}" (${answer.action}); its task ${asked.taskId} was canceled.` };
      }
      const text = String(answer.content?.answer ?? '');
      await calls.set(context.idempotencyKey, asked, peerCallTtlMs);
      reply = await tool.connection.send({ text, taskId: asked.taskId, contextId: asked.contextId, signal });
    } else if (saved !== undefined) {
      reply = { kind: 'task', task: await tool.connection.get(saved.taskId, signal) };
    } else {
      reply = await tool.connection.send({ text: message, signal });
      if (reply.kind === 'task') await calls.set(context.idempotencyKey, { taskId: reply.task.id, contextId: reply.task.contextId }, peerCallTtlMs);
    }
    // A peer that waits for its own approvers keeps the call waiting (within its timeout), looked at every second.
    while (reply.kind === 'task' && standingOf(reply.task) === 'peer-approval') {
      await pause(peerPollMs, signal);
      reply = { kind: 'task', task: await tool.connection.get(reply.task.id, signal) };
    }
    if (reply.kind === 'message') {
      await calls.delete(context.idempotencyKey);
      return { ok: true, output: textOfMessage(reply.message) || `(the agent "${tool.name}" answered with no text)` };
    }
    const task = reply.task;
    const text = textOfTask(task);
    switch (standingOf(task)) {
      case 'finished':
        await calls.delete(context.idempotencyKey);
        return { ok: true, output: `${text === '' ? `(the agent "${tool.name}" answered with no text)` : text}\n\n[task ${task.id} of the agent "${tool.name}"]`, metadata: { a2aTaskId: task.id } };
      case 'failed':
        await calls.delete(context.idempotencyKey);
        return { ok: false, kind: 'business', error: `The agent "${tool.name}" did not finish task ${task.id} (${stateName(task)})${text === '' ? '' : `: ${text}`}` };
      case 'needs-input': {
        const form = inputForm({ name: tool.name, taskId: task.id, question: text, risk: tool.peer.risk });
        await calls.delete(context.idempotencyKey);
        await calls.set(questionKey(form.fingerprint), { taskId: task.id, contextId: task.contextId }, peerCallTtlMs);
        return { ok: true, output: `The agent "${tool.name}" needs an answer from the person.`, awaitElicitation: form };
      }
      case 'peer-approval':
      case 'running':
        await calls.set(context.idempotencyKey, { taskId: task.id, contextId: task.contextId }, peerCallTtlMs);
        return { ok: false, kind: 'business', error: `The agent "${tool.name}" is still working on task ${task.id} (${stateName(task)}).` };
    }
  } catch (error) {
    if (signal.aborted) return { ok: false, kind: 'business', error: `The agent "${tool.name}" did not finish within ${tool.peer.timeoutSeconds} s.` };
    return { ok: false, kind: 'infrastructure', error: `The agent "${tool.name}" could not be reached: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The peer's question as a one-field form the chat asks like an MCP server's; its fingerprint names the task. Pure. */
function inputForm(input: { readonly name: string; readonly taskId: string; readonly question: string; readonly risk: string }): ElicitationForm {
  const message = input.question === '' ? 'It needs more input.' : input.question;
  const requestedSchema = { type: 'object', properties: { answer: { type: 'string', title: 'Answer' } }, required: ['answer'] };
  return { elicitationId: createShortId(), server: input.name, asker: 'agent', message, requestedSchema, fingerprint: canonicalJson({ message, requestedSchema, task: input.taskId }), risk: input.risk };
}

/** Where a question's task is kept. Pure. */
function questionKey(fingerprint: string): string {
  return `question:${createHash('sha256').update(fingerprint).digest('hex')}`;
}

/** A task's state in words (`TASK_STATE_FAILED` → `failed`). Pure. */
function stateName(task: Task): string {
  return taskStateToJSON(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED).replace(/^TASK_STATE_/, '').toLowerCase();
}

/** Waits `ms`, or rejects when the call is aborted. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
