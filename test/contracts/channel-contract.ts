import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChannelAdapter } from '../../src/channel/channel-adapter.js';
import { builtinChannels } from '../../src/app/builtin-channels.js';
import { approvalsConfigYaml, createDeployTool } from '../fakes/deploy-tool.js';
import { findLastUserText } from '../fakes/find-last-user-text.js';
import { createScriptedModelServer, type ScriptedHandler, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { waitFor } from '../fakes/start-test-app.js';
import type { BotMessage, ChannelHarness, ChannelPlatform, ContractAppSetup } from './channel-harness.js';
import { type ContractApp, contractModelKey, startContractApp } from './start-contract-app.js';

/** The cases of the channel contract, by name (for `knownGaps`). */
export type ChannelContractCase = 'inbound' | 'strangers' | 'approvals' | 'secrets' | 'doctor' | 'restart';

/** Options: cases a channel is known to fail today, each with the reason; they run as `it.fails`, so a fix is noticed. */
export type ChannelContractOptions = { readonly knownGaps?: Partial<Readonly<Record<ChannelContractCase, string>>> };

/** The action the contract's risky tool asks about, as its approval card shows it. */
const riskyAction = 'Deploy the service to staging';
const riskyDone = 'done: deployed to staging';

/**
 * The model every case talks to: a tool result → `done: <result>`; "please deploy staging" → the risky deploy call;
 * anything else → `answer to <token>`, the `msg-…` token of the text, so a channel's framing of the text does not matter.
 */
const contractModel: ScriptedHandler = (body, context) => {
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
  if (last?.role === 'user' && context.lastUserText.includes('please deploy staging')) return { toolCalls: [{ name: 'deploy', arguments: { target: 'staging' } }] };
  return { text: `answer to ${/msg-[a-z0-9-]+/.exec(context.lastUserText)?.[0] ?? 'nothing'}` };
};

/** One case's world: the platform, the scripted model, the risky tool, a data folder, and the apps started over it. */
type ContractWorld = {
  readonly platform: ChannelPlatform;
  readonly model: ScriptedModelServer;
  readonly deployRuns: readonly string[];
  readonly dataDir: string;
  /** Starts the app (again) over the same data folder. */
  start(): Promise<ContractApp>;
  adapter(): ChannelAdapter;
};

/** The behaviour every channel adapter must show, each case over its own platform, model and data folder. */
export function describeChannelContract(harness: ChannelHarness, options: ChannelContractOptions = {}): void {
  const gaps = options.knownGaps ?? {};
  const test = (name: ChannelContractCase, title: string, body: (world: ContractWorld) => Promise<void>) => {
    const gap = gaps[name];
    const run = () => withWorld(harness, body);
    if (gap === undefined) it(title, run);
    else it.fails(`${title} (known gap, expected to fail: ${gap})`, run);
  };

  describe(`channel contract: ${harness.channelName}`, () => {
    test('inbound', 'inbound text from an allowed user becomes an event, and the model\'s answer arrives in that chat', async (world) => {
      const started = await world.start();
      await world.platform.sendAsUser('hello msg-inbound');
      await waitForBot(world.platform, 'answer to msg-inbound');
      expect(turnsAbout(world.model, 'msg-inbound')).toBe(1);
      // The event carried the channel's name, given once by its adapter (reported once its turn is over).
      await started.app.bus.idle();
      const handled = await waitFor(() => started.handledEvents.some((event) => event.type === 'message-received') && started.handledEvents, 'the message event handled');
      expect(handled.filter((event) => event.type === 'message-received')).toEqual([expect.objectContaining({ channel: harness.channelName, failed: false })]);
    });

    test('strangers', 'a sender who is not allowed never reaches the model', async (world) => {
      const started = await world.start();
      const { access } = world.platform;
      switch (access.kind) {
        case 'allow-list':
          await access.sendAsStranger('let me in msg-stranger');
          // The allowed user's message comes after the stranger's on the platform: once it is answered, the stranger's was handled.
          await world.platform.sendAsUser('hello msg-after-stranger');
          await waitForBot(world.platform, 'answer to msg-after-stranger');
          // Had the stranger's message been let in, its turn would be queued by now (in its own conversation).
          await started.app.bus.idle();
          expect(turnsAbout(world.model, 'msg-stranger')).toBe(0);
          expect(countInBot(world.platform, 'answer to msg-stranger')).toBe(0);
          return;
        case 'one-person':
          expect(access.reason).not.toBe('');
          // One person only is safe when nobody else can reach the channel: it never runs in the server.
          expect(world.adapter().modes).not.toContain('server');
          return;
        default:
          assertNever(access);
      }
    });

    test('approvals', 'a risky tool call is decided in the channel\'s own style, and the turn continues once', async (world) => {
      const started = await world.start();
      const { approvals } = world.platform;
      const surface = world.adapter().traits(started.config).approvals;
      await world.platform.sendAsUser('please deploy staging msg-risky');
      if (approvals.style === 'none') {
        expect(approvals.reason).not.toBe('');
        expect(surface).toBeUndefined();
        // Nobody can decide here: the call is not run, and the turn still answers.
        await waitForBot(world.platform, 'done: ');
        expect(world.deployRuns).toEqual([]);
        return;
      }
      expect(surface?.style).toBe(approvals.style);
      const card = await waitForBot(world.platform, riskyAction);
      expect(world.deployRuns).toEqual([]);
      const decide = () => (approvals.style === 'buttons' ? approvals.pressApprove(card) : world.platform.sendAsUser('1'));
      await decide();
      await waitForBot(world.platform, riskyDone);
      // A second tap (or a second "1") on a decided card must not run the call or continue the turn again.
      await decide();
      await world.platform.sendAsUser('and then msg-after-card');
      await waitForBot(world.platform, 'answer to msg-after-card');
      expect(world.deployRuns).toEqual(['staging']);
      expect(countInBot(world.platform, riskyDone)).toBe(1);
      expect(world.model.requests.filter((request) => request.body?.messages?.at(-1)?.role === 'tool')).toHaveLength(1);
    });

    test('secrets', 'the channel\'s secret and the model key never appear in the log lines or the audit file', async (world) => {
      const started = await world.start();
      await world.platform.sendAsUser('hello msg-secret');
      await waitForBot(world.platform, 'answer to msg-secret');
      await world.platform.sendAsUser('please deploy staging msg-audit');
      await waitForBot(world.platform, world.platform.approvals.style === 'none' ? 'done: ' : riskyAction);
      const secrets = [contractModelKey, ...('value' in harness.secret ? [harness.secret.value] : [])];
      // The logger knows the secrets: a line carrying them in an ordinary field comes out masked.
      for (const secret of secrets) started.logger.info({ detail: `probe ${secret} probe` }, 'contract secret probe');
      await started.stop();
      const probes = started.logLines.filter((line) => line.includes('contract secret probe'));
      expect(probes).toHaveLength(secrets.length);
      for (const probe of probes) expect(probe).toContain('probe *** probe');
      const audit = readAuditText(world.dataDir);
      expect(audit).toContain('deploy');
      expect(started.logLines.length).toBeGreaterThan(secrets.length);
      for (const secret of secrets) {
        expect(started.logLines.filter((line) => line.includes(secret))).toEqual([]);
        expect(audit.includes(secret)).toBe(false);
      }
    });

    test('doctor', 'the doctor has a line for the channel', async (world) => {
      const started = await world.start();
      const lines = await harness.doctorLines(started.config);
      const ours = lines.filter((line) => line.subject === harness.channelName);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours.filter((line) => line.status === 'fail' || line.status === 'off')).toEqual([]);
    });

    test('restart', 'a message answered, the app restarted on the same data, the platform delivering it again: one answer', async (world) => {
      const first = await world.start();
      const sent = await world.platform.sendAsUser('remember msg-once');
      await waitForBot(world.platform, 'answer to msg-once');
      await first.stop();
      const second = await world.start();
      const { redelivery } = world.platform;
      if (redelivery.kind === 'redelivers') await redelivery.deliverAgain(sent);
      else expect(redelivery.reason).not.toBe('');
      // Later in the same chat: once it is answered, a re-delivered message before it was handled too.
      await world.platform.sendAsUser('and then msg-after-restart');
      await waitForBot(world.platform, 'answer to msg-after-restart');
      await second.app.bus.idle();
      expect(countInBot(world.platform, 'answer to msg-once')).toBe(1);
      expect(turnsAbout(world.model, 'msg-once')).toBe(1);
    });
  });
}

async function withWorld(harness: ChannelHarness, body: (world: ContractWorld) => Promise<void>): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), `echo-contract-${harness.channelName}-`));
  const dataDir = join(folder, 'data');
  const model = await createScriptedModelServer({ fallback: contractModel });
  const deploy = createDeployTool();
  const apps: ContractApp[] = [];
  let platform: ChannelPlatform | undefined;
  const stopped = new Set<ContractApp>();
  try {
    const running = await harness.startPlatform();
    platform = running;
    let lastSetup: ContractAppSetup | undefined;
    const adapter = () => {
      if (!lastSetup) throw new Error('the app has not started yet');
      const found = (lastSetup.channels ?? builtinChannels).find((candidate) => candidate.name === harness.channelName);
      if (!found) throw new Error(`no adapter named ${harness.channelName} among the channels offered`);
      return found;
    };
    await body({
      platform: running,
      model,
      deployRuns: deploy.runs,
      dataDir,
      adapter,
      async start() {
        lastSetup = running.appSetup();
        const started = await startContractApp({ setup: lastSetup, dataDir, modelUrl: model.url, yaml: approvalsConfigYaml(), extraTools: [deploy.tool] });
        const tracked: ContractApp = {
          ...started,
          async stop() {
            if (stopped.has(tracked)) return;
            stopped.add(tracked);
            await started.stop();
          },
        };
        apps.push(tracked);
        await running.connected(tracked);
        return tracked;
      },
    });
  } finally {
    for (const app of apps) await app.stop();
    await platform?.stop();
    await model.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Waits for a bot message in the user's chat that contains `text`. */
async function waitForBot(platform: ChannelPlatform, text: string): Promise<BotMessage> {
  try {
    return await waitFor(() => platform.botMessages().find((message) => message.text.includes(text)), `the bot to show "${text}"`);
  } catch (error) {
    throw new Error(`${String(error)}; the bot showed: ${JSON.stringify(platform.botMessages().map((message) => message.text))}`);
  }
}

/** How many times `text` appears in everything the bot showed the user. */
function countInBot(platform: ChannelPlatform, text: string): number {
  return platform.botMessages().map((message) => message.text).join('\n').split(text).length - 1;
}

/** Turns the model ran for a user message carrying `token` (tool-result continuations not counted). */
function turnsAbout(model: ScriptedModelServer, token: string): number {
  return model.requests.filter((request) => request.path === '/v1/chat/completions' && request.body?.messages?.at(-1)?.role === 'user' && findLastUserText(request.body).includes(token)).length;
}

function readAuditText(dataDir: string): string {
  const folder = join(dataDir, 'audit');
  if (!existsSync(folder)) return '';
  return readdirSync(folder)
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .join('\n');
}

function assertNever(value: never): never {
  throw new Error(`unexpected: ${JSON.stringify(value)}`);
}
