import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CallerRequests } from './caller-requests.js';
import type { ServeCaller } from './serve-caller.js';

/** What the tools of one request are registered with: the caller, the requests service, the wait limit, the hang-up. */
export type ServeToolsContext = {
  readonly caller: ServeCaller;
  readonly requests: CallerRequests;
  /** `mcp.serve.waitSeconds`: the longest a call waits, and the default. */
  readonly maxWaitSeconds: number;
  /** Aborted when the HTTP caller hangs up: the wait ends, the record stays. */
  readonly closed: AbortSignal;
};

const requestId = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,100}$/)
  .optional()
  .describe('Your id for this request (letters, digits, _ . : -). Call again with the same id to get the answer or the pending state after a timeout, a dropped connection or a restart; without one, a new id is made and returned.');
const waitSeconds = z.number().int().min(0).optional().describe('How long to wait for the answer in this call (capped by the server); 0 returns the state at once.');

/** Registers ask_person, request_approval, notify and list_pending on a server built for one request. */
export function registerServeTools(server: McpServer, context: ServeToolsContext): void {
  const waitMs = (seconds: number | undefined) => Math.min(seconds ?? context.maxWaitSeconds, context.maxWaitSeconds) * 1000;
  const { caller, requests } = context;

  server.registerTool(
    'ask_person',
    {
      title: 'Ask the person in their chat',
      description: `Asks ${caller.identity.userId}'s chat a question and returns the answer. With choices, the person presses a button (or replies with a number); without, they type an answer. If the result is "pending", call again later with the same id.`,
      inputSchema: z.object({
        id: requestId,
        question: z.string().min(1).max(2000).describe('The question, as the person will read it.'),
        choices: z.array(z.string().min(1).max(60)).max(10).optional().describe('Answers to offer as buttons; leave out for a typed answer.'),
        waitSeconds,
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) => asResult(await requests.ask(caller, { requestId: args.id, question: args.question, options: args.choices ?? [], waitMs: waitMs(args.waitSeconds), signal: context.closed })),
  );

  server.registerTool(
    'request_approval',
    {
      title: 'Ask for approval before you act',
      description: 'Shows an approval card for an action YOU will take (deploy, delete, pay...) to the approvers of the chat; returns approved or denied with the approver\'s name. Do not act unless the status is "approved". If "pending", call again later with the same id.',
      inputSchema: z.object({
        id: requestId,
        action: z.string().min(1).max(500).describe('What you will do, in one line: "Deploy build 412 to production".'),
        details: z.string().max(2000).optional().describe('Anything the approver should read first (diff summary, target, rollback).'),
        risk: z.enum(['read_only', 'write', 'exec', 'dangerous']).default('exec').describe('How much harm the action can do.'),
        waitSeconds,
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) => asResult(await requests.requestApproval(caller, { requestId: args.id, action: args.action, details: args.details, risk: args.risk, waitMs: waitMs(args.waitSeconds), signal: context.closed })),
  );

  server.registerTool(
    'notify',
    {
      title: 'Send the person a message',
      description: 'Sends a message to the chat this key is mapped to (no answer expected).',
      inputSchema: z.object({ text: z.string().min(1).max(4000).describe('The message (Markdown).') }),
      annotations: { openWorldHint: true },
    },
    async (args) => asResult(await requests.notify(caller, { text: args.text })),
  );

  server.registerTool(
    'list_pending',
    {
      title: 'List your open questions and approvals',
      description: 'Lists the questions and approval requests this key raised that are still waiting for the person.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    async () => asResult(await requests.listPending(caller)),
  );
}

/** A tool result: the outcome as JSON text and as structured content; a refusal is an error result the caller reads. */
function asResult(outcome: { readonly status: string }) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(outcome) }],
    structuredContent: outcome as Record<string, unknown>,
    isError: outcome.status === 'refused',
  };
}
