import { randomUUID } from 'node:crypto';
import { type Message, Role, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

/** The SDK's own client for an agent at `baseUrl`, sending this bearer key (JSON-RPC, protocol 1.0). */
export function connectA2aClient(baseUrl: string, key: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) })).createFromUrl(baseUrl);
}

/** A v1.0 SendMessage request carrying one text part. */
export function textRequest(text: string, options: { readonly returnImmediately?: boolean; readonly metadata?: Record<string, unknown> } = {}): SendMessageRequest {
  const message: Message = {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: options.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: options.returnImmediately ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true } : undefined, metadata: undefined };
}

/** The text of a task's artifacts. */
export function answerOf(task: Task): string {
  return task.artifacts.flatMap((artifact) => artifact.parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))).join('');
}

/** The text of a task's status message. */
export function statusTextOf(task: Task): string {
  return (task.status?.message?.parts ?? []).flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('');
}

/** The result as a task (a plain message fails the test). */
export function asTask(result: Message | Task): Task {
  if ('messageId' in result) throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}
