import { z } from 'zod';
import type { ToolCall } from '../../../src/model/chat-message.js';
import type { ModelFailure, ModelPort, ModelRequest, ModelResult } from '../../../src/model/model-port.js';
import type { TurnScope } from '../../../src/agent/turn-scope.js';
import { createLogger, type Logger } from '../../../src/logging/create-logger.js';
import { defineTool, type ToolDefinition } from '../../../src/registry/define-tool.js';
import { untouchedServices } from './registry-fixtures.js';

/** One scripted model answer: tool calls, a final text, or a failure. */
export type ScriptedAnswer = { readonly text?: string; readonly calls?: readonly ToolCall[] } | { readonly failure: ModelFailure };

/** An in-process ModelPort that answers from a script and records every request it got. */
export function scriptedModel(script: readonly ScriptedAnswer[] | ((request: ModelRequest, index: number) => ScriptedAnswer)) {
  const requests: ModelRequest[] = [];
  const model: ModelPort = {
    name: 'scripted',
    async complete(request): Promise<ModelResult> {
      requests.push(request);
      const index = requests.length - 1;
      const step = typeof script === 'function' ? script(request, index) : script[index];
      if (step === undefined) throw new Error(`the script has no answer for request ${index + 1}`);
      if ('failure' in step) return { ok: false, failure: step.failure };
      const toolCalls = step.calls ?? [];
      return { ok: true, answer: { text: step.text ?? '', toolCalls, finishReason: toolCalls.length > 0 ? 'tool-calls' : 'stop' } };
    },
  };
  return { model, requests };
}

/** A tool that records what it ran with; `answer` may decide the outcome. */
export function countingTool(name: string, overrides: Partial<ToolDefinition> = {}) {
  const runs: unknown[] = [];
  const base = defineTool({
    name,
    description: `The ${name} tool.`,
    input: z.object({ text: z.string() }),
    risk: 'write',
    approval: 'never',
    execute: async (input) => {
      runs.push(input);
      return { ok: true, output: `${name} did ${input.text}` };
    },
  });
  const tool = { ...base, ...overrides } as ToolDefinition;
  return { tool, runs };
}

/** The scope of an attended telegram turn that sees `visible`. */
export function scopeFor(visible: Iterable<string>, overrides: Partial<TurnScope> = {}): TurnScope {
  return {
    traceId: 'trace-turn',
    sessionKey: 'telegram:1001',
    target: { channel: 'telegram', chatId: '1001' },
    origin: 'user',
    unattended: false,
    userId: '42',
    userName: 'Bob',
    channel: 'telegram',
    chatId: '1001',
    isGroup: false,
    runKey: 'event-turn',
    callCounter: { next: 0 },
    causationId: 'event-1',
    visibleTools: new Set(visible),
    services: untouchedServices,
    traceStartedHere: true,
    ...overrides,
  };
}

/** A logger that writes nothing. */
export function silentLogger(): Promise<Logger> {
  return createLogger({ level: 'silent', pretty: false });
}

let callCounter = 0;
/** A model tool call with a fresh id. */
export function toolCall(name: string, input: unknown): ToolCall {
  callCounter += 1;
  return { id: `tc-${callCounter}`, name, argumentsText: JSON.stringify(input) };
}
