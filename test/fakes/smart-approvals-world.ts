import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { reviewerSystemPrompt } from '../../src/reviewer/reviewer-prompt.js';
import { createDeployTool, deployingModel } from './deploy-tool.js';
import type { RecordedRequest, ScriptedHandler, ScriptedStep } from './scripted-step.js';
import type { EmulatedBotMessage } from './telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from './telegram-scenario.js';

/** True for a request the approval reviewer made (its fixed system prompt first). */
export function isReviewerRequest(request: Pick<RecordedRequest, 'body'>): boolean {
  return request.body?.messages?.[0]?.content === reviewerSystemPrompt;
}

/**
 * The agent's model and the reviewer on one scripted server: reviewer requests go to `reviewer`; a user's
 * "run <command>" becomes an exec call, "wipe <x>" a dangerous call, "deploy <x>" a deploy call; a tool
 * result is answered `done: <result>`.
 */
export function smartModel(reviewer: (argumentsText: string) => ScriptedStep | Promise<ScriptedStep>): ScriptedHandler {
  return (body, context) => {
    if (isReviewerRequest({ body })) return reviewer(context.lastUserText);
    const last = body.messages?.at(-1);
    if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
    const run = /^run (.+)$/.exec(context.lastUserText);
    if (run && last?.role === 'user') return { toolCalls: [{ name: 'exec', arguments: { command: run[1] ?? '' } }] };
    const publish = /^publish (\w+)$/.exec(context.lastUserText);
    if (publish && last?.role === 'user') return { toolCalls: [{ name: 'publish', arguments: { page: publish[1] ?? '' } }] };
    const wipe = /^wipe (\w+)$/.exec(context.lastUserText);
    if (wipe && last?.role === 'user') return { toolCalls: [{ name: 'wipe', arguments: { target: wipe[1] ?? '' } }] };
    return deployingModel(body, context);
  };
}

/** A dangerous test tool that counts its runs. */
export function createWipeTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'wipe',
    description: 'Wipe an environment.',
    input: z.object({ target: z.string() }),
    risk: 'dangerous',
    sideEffects: true,
    execute: async (input) => {
      runs.push(input.target);
      return { ok: true, output: `wiped ${input.target}` };
    },
  });
  return { tool, runs };
}

/** A write tool that always asks (reviewable in attended smart turns), counting its runs. */
export function createPublishTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'publish',
    description: 'Publish a page.',
    input: z.object({ page: z.string() }),
    risk: 'write',
    approval: 'always',
    sideEffects: true,
    execute: async (input) => {
      runs.push(input.page);
      return { ok: true, output: `published ${input.page}` };
    },
  });
  return { tool, runs };
}

/** A Telegram scenario in smart mode with the deploy, wipe and exec tools offered, and the workspace created. */
export async function startSmartScenario(options: { readonly extraYaml?: string; readonly approvers?: string; readonly webhookSecret?: string } = {}) {
  const deploy = createDeployTool();
  const wipe = createWipeTool();
  const publish = createPublishTool();
  const scenario: TelegramScenario = await startTelegramScenario({
    allowFrom: '1001',
    approvers: options.approvers ?? '1001',
    extraTools: [deploy.tool, wipe.tool, publish.tool],
    yaml: [
      'tools:',
      '  alsoAllow: [deploy, wipe, exec, publish]',
      // One chat sees many short messages here; Telegram's own pace (1 a second) would only make the test slow.
      'channels:',
      '  telegram:',
      '    limits: { perChatPerSecond: 100, perChatBurst: 100 }',
      ...(options.webhookSecret ? ['  webhook:', `    secret: ${options.webhookSecret}`] : []),
      'approvals:',
      '  explain: false',
      '  mode: smart',
      ...(options.webhookSecret ? ['  route: approvers'] : []),
      ...(options.extraYaml ? [options.extraYaml] : []),
    ].join('\n'),
  });
  mkdirSync(join(scenario.testApp.dataDir, 'workspace'), { recursive: true });
  return { scenario, deploy, wipe, publish, reviewerRequests: () => scenario.modelRequests().filter(isReviewerRequest) };
}

/** An approval card (a message with buttons). */
export const isCard = (message: EmulatedBotMessage) => (message.keyboard?.length ?? 0) > 0;
