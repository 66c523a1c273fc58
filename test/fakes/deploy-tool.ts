import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ScriptedHandler } from './scripted-step.js';

/** A risky test tool (risk exec, asks by risk) that counts its runs, for approval scenarios. */
export function createDeployTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'deploy',
    description: 'Deploy the service to an environment.',
    input: z.object({ target: z.string().describe('Environment name') }),
    risk: 'exec',
    sideEffects: true,
    describeForApproval: (input) => `Deploy the service to ${input.target}`,
    execute: async (input) => {
      runs.push(input.target);
      return { ok: true, output: `deployed to ${input.target}` };
    },
  });
  return { tool, runs };
}

/** YAML that lets the deploy tool be offered, skips the model-written explanation, and sets short expiry when asked. */
export function approvalsConfigYaml(options: { readonly timeoutMinutes?: number } = {}): string {
  return [
    'tools:',
    '  alsoAllow: [deploy]',
    'approvals:',
    '  explain: false',
    ...(options.timeoutMinutes !== undefined ? [`  timeoutMinutes: ${options.timeoutMinutes}`] : []),
  ].join('\n');
}

/**
 * A model that behaves like a real one for these scenarios: "deploy X" → a deploy tool call;
 * after a tool result → `done: <result>`; anything else → `echo: <text>`.
 */
export const deployingModel: ScriptedHandler = (body, context) => {
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
  const match = /deploy (\w+)/.exec(context.lastUserText);
  if (match && last?.role === 'user') return { toolCalls: [{ name: 'deploy', arguments: { target: match[1] ?? '' } }] };
  return { text: `echo: ${context.lastUserText}` };
};
