import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/create-logger.js';
import { channelConfigSections } from '../../src/app/builtin-channels.js';
import { createConfigSchema } from '../../src/config/config-schema.js';
import { createMcpToolSource } from '../../tools/mcp/create-mcp-tool-source.js';
import { missingServerSandboxMessage } from '../../tools/mcp/build-server-launch.js';
import { repositoryRoot } from '../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../fakes/start-test-app.js';
import { gatewayOf, getPath, postSigned } from '../fakes/webhook-client.js';

const configSchema = createConfigSchema(channelConfigSections());

// Issue 24: a stdio MCP server opened /proc/$PPID/environ and returned the agent's secrets, and listed the data folder.
const snoopingServer = path.join(repositoryRoot, 'test', 'fakes', 'snooping-mcp-server.mjs');
const bin = (name: string) => path.join(repositoryRoot, 'node_modules', '.bin', name);
const secretMarker = 'sk-mcp-sandbox-9b21d4';
const webhookSecret = 'mcp-sandbox-webhook-secret';

type McpHealth = Record<string, { state: string; tools: number; error?: string }>;

/** The agent's own environment as the kernel holds it (what /proc/<agent>/environ shows), minus what a server may get. */
function agentEnvironmentEntries(): string[] {
  return readFileSync('/proc/self/environ', 'utf8')
    .split('\0')
    .filter((entry) => entry.length > 8 && !/^(PATH|HOME|LANG|TZ|PWD)=/.test(entry));
}

describe('stdio MCP servers run in the sandbox (issue 24)', () => {
  let test: TestApp | undefined;
  let model: ScriptedModelServer | undefined;
  const folders: string[] = [];
  afterEach(async () => {
    await test?.stop();
    test = undefined;
    await model?.close();
    model = undefined;
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  // Outside /tmp, which the sandbox covers with its own tmpfs anyway: these must be hidden on their own merit.
  const scratch = () => {
    const folder = realpathSync(mkdtempSync('/var/tmp/echo-mcp-sandbox-'));
    folders.push(folder);
    return folder;
  };

  async function callTools(calls: readonly { name: string; arguments: Record<string, unknown> }[]): Promise<string[]> {
    if (!test || !model) throw new Error('no app');
    model.enqueue({ toolCalls: [...calls] });
    model.enqueue({ text: 'Done.' });
    const answer = await postSigned({ baseUrl: gatewayOf(test.app).baseUrl, secret: webhookSecret, body: { chatId: 'ops', text: `look around: ${calls.map((call) => call.name).join(', ')}` }, query: '?wait=true' });
    expect(answer.body).toMatchObject({ reply: 'Done.' });
    const last = model.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)?.body?.messages ?? [];
    // The chat's history holds earlier calls' results too: this call's are the last ones.
    return last
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content))
      .slice(-calls.length);
  }

  it('a hostile server sees neither the agent environment, nor its data folder, nor the config file; the real servers still work', async () => {
    const notes = scratch();
    writeFileSync(path.join(notes, 'note.txt'), 'buy oat milk');
    // The data folder inside a folder a server mounts: it stays hidden all the same.
    const dataDir = path.join(notes, 'data');
    mkdirSync(path.join(dataDir, 'audit'), { recursive: true });
    writeFileSync(path.join(dataDir, 'audit', 'audit.jsonl'), `${secretMarker}-audit\n`);
    const configFile = path.join(scratch(), 'agent.yaml');
    writeFileSync(
      configFile,
      [
        'mcp:',
        '  servers:',
        '    snoop:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(snoopingServer)}]`,
        '      env: { SNOOP_DECLARED: declared-value }',
        `      mounts: [${JSON.stringify(notes)}]`,
        '      risk: read_only',
        '    files:',
        `      command: ${JSON.stringify(bin('mcp-server-filesystem'))}`,
        `      args: [${JSON.stringify(notes)}]`,
        `      mounts: [{ path: ${JSON.stringify(notes)}, writable: true }]`,
        '      risk: read_only',
        '    everything:',
        `      command: ${JSON.stringify(bin('mcp-server-everything'))}`,
        '      args: [stdio]',
        '      risk: read_only',
        'tools:',
        '  alsoAllow: ["snoop__*", "files__*", "everything__echo"]',
        '  credentials:',
        `    web_fetch: { token: ${secretMarker}-credential }`,
        '',
      ].join('\n'),
    );
    model = await createScriptedModelServer();
    test = await startTestApp({ configFile, dataDir, environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: webhookSecret, OPENAI_API_KEY: `${secretMarker}-openai` } });
    const health = async () => ((await getPath(gatewayOf((test as TestApp).app).baseUrl, '/healthz')).body as { mcp?: McpHealth }).mcp ?? {};
    await waitFor(async () => {
      const mcp = await health();
      return ['snoop', 'files', 'everything'].every((name) => mcp[name]?.state === 'up');
    }, 'the three servers up', 20_000);

    const [snooped] = await callTools([{ name: 'snoop__snoop', arguments: { paths: [`/proc/${process.pid}/environ`, dataDir, path.join(dataDir, 'audit', 'audit.jsonl'), configFile, repositoryRoot, path.join(notes, 'note.txt')] } }]);
    expect(snooped).toMatch(/\/proc\/\d+\/environ: /);
    expect(snooped).not.toContain(secretMarker);
    expect(snooped).toContain(`${path.join(notes, 'note.txt')}: buy oat milk`);
    expect(snooped).toContain(`${path.join(dataDir, 'audit', 'audit.jsonl')}: ENOENT`);
    for (const entry of agentEnvironmentEntries()) expect(snooped, 'an entry of the agent environment').not.toContain(entry);
    const environment = JSON.parse(/^ENV (.*)$/m.exec(snooped ?? '')?.[1] ?? '{}') as Record<string, string>;
    // PWD is bwrap's, set to the folder it starts in.
    expect(Object.keys(environment).filter((name) => name !== 'PWD').sort()).toEqual(['HOME', 'LANG', 'PATH', 'SNOOP_DECLARED', 'TZ']);
    expect(snooped).not.toMatch(/^(TERM|SHELL|USER|LOGNAME)=/m);
    expect(environment.SNOOP_DECLARED).toBe('declared-value');
    // The project root is an empty folder there, but for the mount points of the server's own script and the hidden config files.
    const projectListing = snooped?.split('\n').find((line) => line.startsWith(`${repositoryRoot}: `));
    expect(projectListing).toBeDefined();
    expect(projectListing).not.toMatch(/package\.json|src|node_modules/);

    const results = await callTools([
      { name: 'files__write_file', arguments: { path: path.join(notes, 'new.txt'), content: 'written from the sandbox' } },
      { name: 'files__read_text_file', arguments: { path: path.join(notes, 'note.txt') } },
      { name: 'everything__echo', arguments: { message: 'hi' } },
    ]);
    expect(results[1]).toBe('buy oat milk');
    expect(results[2]).toContain('hi');
    expect(readFileSync(path.join(notes, 'new.txt'), 'utf8')).toBe('written from the sandbox');
  });

  it('is refused like exec when bwrap is required and missing: down, with the reason', async () => {
    const config = configSchema.parse({
      model: { primary: { provider: 'openai', name: 'm' } },
      mcp: { servers: { snoop: { command: process.execPath, args: [snoopingServer] } } },
    });
    const source = createMcpToolSource({ config, logger: await createLogger({ level: 'silent', pretty: false }), sandbox: { mode: 'bwrap', bwrapPath: undefined, network: false, hiddenPaths: [] } });
    try {
      await source.start();
      expect(source.servers().snoop).toMatchObject({ state: 'down', tools: 0, error: `could not connect: ${missingServerSandboxMessage}` });
    } finally {
      await source.stop();
    }
  });
});
