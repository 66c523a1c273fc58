import type { UrlCheck } from '../policy/network-policy.js';
import type { DelegationChain } from '../policy/delegation-chain.js';

export type { UrlCheck } from '../policy/network-policy.js';
import type { ElicitationAnswer } from './elicitation.js';
import type { ChatMessage } from '../model/chat-message.js';
import type { Origin } from '../events/inbound-event.js';
import type { Delivery, FileSent } from '../events/outbound-event.js';
import type { Target } from '../events/target.js';
import type { SchedulerPort } from '../scheduling/scheduled-job.js';
import type { KeyValueNamespace } from '../store/key-value-namespace.js';


/** The runtime services a tool may use; given per call, never imported. */
export interface ToolServices {
  /** A durable namespace of the store. */
  state<Value>(namespace: string): KeyValueNamespace<Value>;
  /** Posts text to the conversation this call came from. */
  sendMessage(text: string): Promise<Delivery>;
  /** Sends a checked workspace file to the conversation this call came from (refused over `media.maxSendBytes`). */
  sendFile(file: Omit<FileSent, 'type' | 'target' | 'causationId'>): Promise<Delivery>;
  readonly scheduler: SchedulerPort;
  /** Earlier messages of this session. */
  history(): Promise<readonly ChatMessage[]>;
  /** The folder file tools are confined to (absolute). */
  readonly workspaceDir: string;
  /** Checks a URL (and each redirect) against the network policy. */
  checkUrl(url: string): Promise<UrlCheck>;
  now(): Date;
  readonly timezone: string;
}

/** Everything a tool's execute knows about the call it serves. */
export type ToolContext = {
  readonly executionId: string;
  readonly traceId: string;
  readonly sessionKey: string;
  readonly userId: string;
  readonly channel: string;
  readonly chatId: string;
  readonly target: Target;
  readonly origin: Origin;
  readonly unattended: boolean;
  /** 1 on the first try, 2 on the first retry... */
  readonly attempt: number;
  readonly idempotencyKey: string;
  /** Hashes of tool calls a person approved for this execution. */
  readonly approvedActions: readonly string[];
  /** Set when the session is scoped to fewer tools than its policy allows. */
  readonly allowedTools?: readonly string[];
  /** Set in a sub-task's turn: the sub-tasks from the person's turn down to this one (the last is this turn). */
  readonly delegationChain?: DelegationChain;
  /** In a sub-task: the execution id of the turn that delegated it. */
  readonly parentExecutionId?: string;
  /** In a sub-task: the agent that runs it. */
  readonly agentId?: string;
  /** Aborted at the tool's timeout: the tool must honour it. */
  readonly signal: AbortSignal;
  /** Only this tool's credentials from config, never the whole environment. */
  readonly credentials: Readonly<Record<string, string>>;
  readonly services: ToolServices;
  /** A resumed call whose server asked the person for input: the answer they gave (MCP elicitation). */
  readonly elicitationAnswer?: ElicitationAnswer;
};
