import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWechatAdapter } from '../../channels/wechat/wechat-adapter.js';
import { builtinChannels } from '../../src/app/builtin-channels.js';
import type { Channel } from '../../src/events/channel.js';
import { createScriptedModelServer, type RecordedRequest, type ScriptedModelServer, type ScriptedStep } from './scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from './start-test-app.js';
import { createWechatMockWorld, type WechatMockWorld } from './wechat-mock-world.js';

/** The explanation the scripted model gives every approval card (the risk explainer's separate call). */
export const scriptedExplanation = 'Creates a daily task that posts in this chat.';

/** The whole app, booted like `npm start` with WeChat on, over the mock puppet and the scripted model. */
export type WechatScenario = {
  readonly world: WechatMockWorld;
  readonly model: ScriptedModelServer;
  readonly testApp: TestApp;
  readonly channel: Channel;
  /** Queues the model's next answers to turns (the risk explainer is answered on the side). */
  answer(...steps: ScriptedStep[]): void;
  /** Model requests made by turns, without the explainer's. */
  turnRequests(): readonly RecordedRequest[];
  stop(): Promise<void>;
};

/** How to boot: environment variables as `npm start` reads them, and a YAML overlay. */
export type WechatScenarioOptions = {
  readonly environment?: Readonly<Record<string, string>>;
  /** YAML merged over config/default.yaml (rooms have no environment variable). */
  readonly configYaml?: string;
};

function isExplainerRequest(request: RecordedRequest): boolean {
  const first = request.body?.messages?.[0];
  return typeof first?.content === 'string' && first.content.startsWith('In one short sentence');
}

/** Boots the scenario and logs the bot in. */
export async function startWechatScenario(options: WechatScenarioOptions): Promise<WechatScenario> {
  const world = createWechatMockWorld();
  const model = await createScriptedModelServer();
  const queue: ScriptedStep[] = [];
  model.setFallback((_body, context) => {
    const request = model.requests[context.requestIndex];
    if (request && isExplainerRequest(request)) return { text: scriptedExplanation };
    return queue.shift() ?? {};
  });
  const configDir = mkdtempSync(join(tmpdir(), 'echo-wechat-config-'));
  const configFile = join(configDir, 'wechat.yaml');
  writeFileSync(configFile, options.configYaml ?? '{}\n');
  // The real WeChat adapter, reading the real config, over the mock puppet and without pacing.
  const wechat = createWechatAdapter({ puppet: world.puppet, sendIntervalMs: 0, sendJitterMs: 0, printQrCode: () => undefined });
  const testApp = await startTestApp({
    configFile,
    channels: builtinChannels.map((adapter) => (adapter.name === wechat.name ? wechat : adapter)),
    environment: { OPENAI_BASE_URL: model.url, WECHAT_ENABLED: 'true', ...options.environment },
  });
  const channel = testApp.app.channels.get('wechat');
  if (!channel) throw new Error(`the WeChat channel is not on: ${testApp.app.startupLines.join(' | ')}`);
  world.login();
  await waitFor(() => channel.status().state === 'running', 'the WeChat channel to log in');
  return {
    world,
    model,
    testApp,
    channel,
    answer: (...steps) => void queue.push(...steps),
    turnRequests: () => model.requests.filter((request) => request.path === '/v1/chat/completions' && !isExplainerRequest(request)),
    async stop() {
      await testApp.stop();
      await model.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** The tool results a model request carries, by tool call id. */
export function toolResultsIn(request: RecordedRequest | undefined): ReadonlyMap<string, string> {
  const results = new Map<string, string>();
  for (const message of request?.body?.messages ?? []) {
    if (message.role === 'tool' && typeof message.tool_call_id === 'string') results.set(message.tool_call_id, String(message.content ?? ''));
  }
  return results;
}
