import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { gatewayOf, getPath, postSigned } from '../../fakes/webhook-client.js';
import { createNotesFolder, filesystemServerPid, filesystemServerScript, startEverythingServer } from './mcp-test-servers.js';

type McpHealth = Record<string, { state: string; tools: number; error?: string }>;

const listChangingServer = join(import.meta.dirname, 'list-changing-server.mjs');

function offeredTools(scenario: TelegramScenario, index = -1): string[] {
  const body = scenario.modelRequests().at(index)?.body as { tools?: { function: { name: string } }[] } | undefined;
  return (body?.tools ?? []).map((tool) => tool.function.name);
}

async function mcpHealth(scenario: TelegramScenario): Promise<McpHealth> {
  return ((await getPath(gatewayOf(scenario.testApp.app).baseUrl, '/healthz')).body as { mcp?: McpHealth }).mcp ?? {};
}

function serverYaml(name: string, args: readonly string[], extra: readonly string[] = []): string[] {
  return [`    ${name}:`, `      command: ${JSON.stringify(process.execPath)}`, `      args: ${JSON.stringify(args)}`, ...extra];
}

describe('MCP server lifecycle', () => {
  let scenario: TelegramScenario | undefined;
  let notes: ReturnType<typeof createNotesFolder> | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
    notes?.remove();
  });

  it('never holds start-up for a server that does not answer: it is down after its timeout, the others serve the first turn', async () => {
    notes = createNotesFolder();
    writeFileSync(join(notes.path, 'note.txt'), 'buy oat milk');
    const yaml = [
      'mcp:',
      '  servers:',
      ...serverYaml('files', [filesystemServerScript, notes.path], [`      mounts: [${JSON.stringify(notes.path)}]`]),
      // A child that starts and never says a word.
      ...serverYaml('silent', ['-e', 'setInterval(() => {}, 1000)'], ['      startupTimeoutSeconds: 1']),
      'tools:',
      '  alsoAllow: ["files__*", "silent__*"]',
      '',
    ].join('\n');
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml });
    // Sent at once, before either server is known to be up: the turn waits for their first connection (at most
    // each one's timeout), so the files tools are offered from the first message on.
    scenario.model.enqueue({ text: 'Hello.' });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('hi'));
    await scenario.waitForBotMessage((message) => message.text === 'Hello.', 'the first answer');
    expect(offeredTools(scenario, 0)).toContain('files__read_text_file');
    expect(offeredTools(scenario, 0).some((name) => name.startsWith('silent__'))).toBe(false);

    const health = await mcpHealth(scenario);
    expect(health.files?.state).toBe('up');
    expect(health.silent).toMatchObject({ state: 'down', tools: 0, error: 'could not connect: no answer within 1 s' });

    // Child processes stop with the app.
    expect(filesystemServerPid(notes.path)).toBeGreaterThan(0);
    await scenario.stop();
    scenario = undefined;
    expect(filesystemServerPid(notes.path)).toBeUndefined();
  });

  it('refreshes the tools when a server sends tools/list_changed', async () => {
    const yaml = ['mcp:', '  servers:', ...serverYaml('grow', [listChangingServer], ['      risk: read_only']), 'tools:', '  alsoAllow: ["grow__*"]', ''].join('\n');
    scenario = await startTelegramScenario({ allowFrom: '1001', yaml });
    await waitFor(async () => (await mcpHealth(scenario as TelegramScenario)).grow?.state === 'up', 'grow up');
    expect(scenario.testApp.app.registry.names()).not.toContain('grow__extra');

    scenario.model.enqueue({ toolCalls: [{ name: 'grow__add_tool', arguments: {} }] });
    scenario.model.enqueue({ text: 'Added.' });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('add a tool'));
    await scenario.waitForBotMessage((message) => message.text === 'Added.', 'the answer');
    await waitFor(() => scenario?.testApp.app.registry.names().includes('grow__extra'), 'grow__extra registered');

    scenario.model.enqueue({ toolCalls: [{ name: 'grow__extra', arguments: {} }] });
    scenario.model.enqueue({ text: 'Used it.' });
    await client.sendMessage(client.makeMessage('use the new tool'));
    await scenario.waitForBotMessage((message) => message.text === 'Used it.', 'the second answer');
    expect(offeredTools(scenario, -2)).toContain('grow__extra');
    const last = scenario.modelRequests().at(-1)?.body?.messages ?? [];
    expect(last.filter((message) => message.role === 'tool').map((message) => String(message.content))).toContain('extra is new');
  });

  it('follows the unattended rules in a webhook turn: a read_only MCP tool runs, a write one is refused without a card', async () => {
    const folder = createNotesFolder();
    notes = folder;
    writeFileSync(join(folder.path, 'note.txt'), 'buy oat milk');
    const configFolder = createNotesFolder();
    const configFile = join(configFolder.path, 'mcp.yaml');
    writeFileSync(
      configFile,
      ['mcp:', '  servers:', ...serverYaml('files', [filesystemServerScript, folder.path], [`      mounts: [${JSON.stringify(folder.path)}]`, '      tools:', '        read_text_file: { risk: read_only }']), 'tools:', '  alsoAllow: ["files__*"]', ''].join('\n'),
    );
    const model = await createScriptedModelServer();
    const test = await startTestApp({ configFile, environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: 'mcp-webhook-secret', GATEWAY_PORT: '0' } });
    try {
      model.enqueue({
        toolCalls: [
          { name: 'files__read_text_file', arguments: { path: join(folder.path, 'note.txt') } },
          { name: 'files__write_file', arguments: { path: join(folder.path, 'new.txt'), content: 'x' } },
        ],
      });
      model.enqueue({ text: 'Read it; could not write.' });
      const answer = await postSigned({ baseUrl: gatewayOf(test.app).baseUrl, secret: 'mcp-webhook-secret', body: { chatId: 'ops', text: 'copy my note' }, query: '?wait=true' });
      expect(answer.body).toMatchObject({ reply: 'Read it; could not write.' });
      const last = model.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)?.body?.messages ?? [];
      const results = last.filter((message) => message.role === 'tool').map((message) => String(message.content));
      expect(results[0]).toBe('buy oat milk');
      expect(results[1]).toContain('needs a person\'s approval, and nobody is watching this turn (started by another system)');
      expect(existsSync(join(folder.path, 'new.txt'))).toBe(false);
    } finally {
      await test.stop();
      await model.close();
      configFolder.remove();
    }
  });

  it('notices a Streamable HTTP server that went away (down in /healthz) and reconnects when it is back', async () => {
    let everything = await startEverythingServer();
    const port = Number(new URL(everything.url).port);
    try {
      const yaml = ['mcp:', '  retryMaxSeconds: 1', '  servers:', '    everything:', `      url: ${everything.url}`, 'tools:', '  alsoAllow: ["everything__*"]', ''].join('\n');
      scenario = await startTelegramScenario({ allowFrom: '1001', yaml });
      await waitFor(async () => (await mcpHealth(scenario as TelegramScenario)).everything?.state === 'up', 'everything up');
      expect(scenario.testApp.app.registry.names()).toContain('everything__echo');

      await everything.stop();
      await waitFor(async () => (await mcpHealth(scenario as TelegramScenario)).everything?.state === 'down', 'everything down in /healthz');
      expect(scenario.testApp.app.registry.names()).not.toContain('everything__echo');

      everything = await startEverythingServer(port);
      await waitFor(async () => (await mcpHealth(scenario as TelegramScenario)).everything?.state === 'up', 'everything up again', 20_000);
      expect(scenario.testApp.app.registry.names()).toContain('everything__echo');
    } finally {
      await everything.stop();
    }
  });
});
