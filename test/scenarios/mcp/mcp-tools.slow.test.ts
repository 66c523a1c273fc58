import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { gatewayOf, getPath } from '../../fakes/webhook-client.js';
import { createNotesFolder, type EverythingServer, filesystemServerPid, mcpYaml, startEverythingServer } from './mcp-test-servers.js';

type McpHealth = Record<string, { state: string; tools: number; error?: string }>;

function toolResultsIn(scenario: TelegramScenario): string[] {
  const last = scenario.modelRequests().at(-1);
  return (last?.body?.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));
}

function offeredTools(scenario: TelegramScenario, index = -1): string[] {
  const body = scenario.modelRequests().at(index)?.body as { tools?: { function: { name: string } }[] } | undefined;
  return (body?.tools ?? []).map((tool) => tool.function.name);
}

async function mcpHealth(scenario: TelegramScenario): Promise<McpHealth> {
  const answer = await getPath(gatewayOf(scenario.testApp.app).baseUrl, '/healthz');
  return (answer.body as { mcp?: McpHealth }).mcp ?? {};
}

function buttonData(card: EmulatedBotMessage, label: RegExp): string {
  const button = card.keyboard?.flat().find((candidate) => label.test(candidate.text));
  if (!button) throw new Error(`no button ${label} on the card`);
  return button.callback_data;
}

describe('MCP servers as governed tools (filesystem over stdio, everything over Streamable HTTP)', () => {
  let everything: EverythingServer;
  let notes: ReturnType<typeof createNotesFolder>;
  let scenario: TelegramScenario | undefined;

  beforeAll(async () => {
    everything = await startEverythingServer();
  });
  afterAll(async () => {
    await everything.stop();
  });
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
    notes.remove();
  });

  async function start(): Promise<TelegramScenario> {
    notes = createNotesFolder();
    writeFileSync(join(notes.path, 'note.txt'), 'buy oat milk');
    const started = await startTelegramScenario({ allowFrom: '1001', yaml: mcpYaml({ notes: notes.path, everythingUrl: everything.url }) });
    await waitFor(async () => {
      const health = await mcpHealth(started);
      return health.files?.state === 'up' && health.everything?.state === 'up';
    }, 'both MCP servers up');
    return started;
  }

  async function say(current: TelegramScenario, text: string): Promise<void> {
    const client = current.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage(text));
  }

  it('runs a read-only tool without a card, over stdio and over HTTP, and offers only what the selection allows', async () => {
    scenario = await start();
    scenario.model.enqueue({
      toolCalls: [
        { name: 'files__read_text_file', arguments: { path: join(notes.path, 'note.txt') } },
        { name: 'everything__echo', arguments: { message: 'hello over http' } },
      ],
    });
    scenario.model.enqueue({ text: 'Your note says: buy oat milk.' });
    await say(scenario, 'what does my note say?');
    await scenario.waitForBotMessage((message) => message.text === 'Your note says: buy oat milk.', 'the answer');

    expect(scenario.botMessages().some((message) => (message.keyboard?.length ?? 0) > 0)).toBe(false);
    const results = toolResultsIn(scenario);
    expect(results[0]).toBe('buy oat milk');
    expect(results[1]).toBe('Echo: hello over http');

    const offered = offeredTools(scenario, 0);
    expect(offered).toEqual(expect.arrayContaining(['files__read_text_file', 'files__write_file', 'everything__echo', 'memory']));
    // Not in alsoAllow, or denied: never offered.
    expect(offered).not.toContain('everything__get-sum');
    expect(offered).not.toContain('files__move_file');

    await scenario.testApp.app.registry.flush();
    const audit = readFileSync(join(scenario.testApp.dataDir, 'audit', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"tool":"files__read_text_file","server":"files"');
    expect(audit).toContain('"tool":"everything__echo","server":"everything"');
  });

  it('raises a card for a write tool (risk from config, whatever the server hints), and writes only after Approve', async () => {
    scenario = await start();
    const target = join(notes.path, 'todo.txt');
    scenario.model.enqueue({ toolCalls: [{ name: 'files__write_file', arguments: { path: target, content: 'call the plumber' } }] });
    await say(scenario, 'write "call the plumber" into todo.txt');
    const card = await scenario.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');
    expect(card.text).toContain('files__write_file');
    expect(card.text).toContain('on the MCP server "files"');
    // The server's own hint is shown; it decided nothing.
    expect(card.text).toContain('the server calls it destructive');
    expect(existsSync(target)).toBe(false);

    scenario.model.enqueue({ text: 'Written.' });
    const client = scenario.client({ userId: 1001 });
    await client.sendCallback(client.makeCallbackQuery(buttonData(card, /Approve/), { message: { message_id: card.messageId } }));
    await scenario.waitForBotMessage((message) => message.text === 'Written.', 'the resumed answer');
    expect(readFileSync(target, 'utf8')).toBe('call the plumber');
  });

  it('answers bad arguments with a validation error from the server schema, without calling the server', async () => {
    scenario = await start();
    scenario.model.enqueue({ toolCalls: [{ name: 'files__read_text_file', arguments: { file: 'note.txt', head: 'two' } }] });
    scenario.model.enqueue({ text: 'Sorry, let me fix that.' });
    await say(scenario, 'read my note');
    await scenario.waitForBotMessage((message) => message.text === 'Sorry, let me fix that.', 'the answer');
    const [result] = toolResultsIn(scenario);
    expect(result).toContain('Invalid parameters: path: required; head: must be number');
    await scenario.testApp.app.registry.flush();
    const audit = readFileSync(join(scenario.testApp.dataDir, 'audit', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"outcome":"validation"');
  });

  it('refuses a tool the selection does not offer, even when the model calls it', async () => {
    scenario = await start();
    scenario.model.enqueue({ toolCalls: [{ name: 'everything__get-sum', arguments: { a: 1, b: 2 } }, { name: 'files__move_file', arguments: { source: 'a', destination: 'b' } }] });
    scenario.model.enqueue({ text: 'I cannot do that here.' });
    await say(scenario, 'add one and two');
    await scenario.waitForBotMessage((message) => message.text === 'I cannot do that here.', 'the answer');
    const results = toolResultsIn(scenario);
    expect(results[0]).toContain('"everything__get-sum" is not available in this conversation');
    expect(results[1]).toContain('"files__move_file" is not available in this conversation');
  });

  it('shows a killed server as down in /healthz, withdraws its tools (a call is told "unavailable"), and brings it back', async () => {
    scenario = await start();
    const pid = filesystemServerPid(notes.path);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid ?? 0, 'SIGKILL');

    // Down: reported, and its tools withdrawn from the model; a call that still names one is told why.
    const down = await waitFor(async () => {
      const health = await mcpHealth(scenario as TelegramScenario);
      return health.files?.state === 'down' ? health.files : undefined;
    }, 'files down in /healthz');
    expect(down.tools).toBe(0);
    scenario.model.enqueue({ toolCalls: [{ name: 'files__read_text_file', arguments: { path: join(notes.path, 'note.txt') } }] });
    scenario.model.enqueue({ text: 'The notes are unreachable right now.' });
    await say(scenario, 'read my note');
    await scenario.waitForBotMessage((message) => message.text === 'The notes are unreachable right now.', 'the answer while down');
    expect(toolResultsIn(scenario)[0]).toMatch(/unavailable: its MCP server "files" is (down|starting)/);

    // Back: a new child, its tools offered again.
    await waitFor(async () => (await mcpHealth(scenario as TelegramScenario)).files?.state === 'up', 'files up again', 20_000);
    expect(filesystemServerPid(notes.path)).not.toBe(pid);
    scenario.model.enqueue({ toolCalls: [{ name: 'files__read_text_file', arguments: { path: join(notes.path, 'note.txt') } }] });
    scenario.model.enqueue({ text: 'It says: buy oat milk.' });
    await say(scenario, 'and now?');
    await scenario.waitForBotMessage((message) => message.text === 'It says: buy oat milk.', 'the answer after the restart');
    expect(toolResultsIn(scenario).at(-1)).toBe('buy oat milk');
    expect(offeredTools(scenario)).toContain('files__read_text_file');
  });
});
