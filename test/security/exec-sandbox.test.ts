import { channelConfigSections } from '../../src/app/builtin-channels.js';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execSandboxFor } from '../../src/app/exec-sandbox-for.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { ToolContext } from '../../src/registry/tool-context.js';
import { createExecTool } from '../../tools/exec-tool.js';
import { missingSandboxMessage } from '../../tools/exec-sandbox.js';
import { createProcessGroupTracker } from '../../tools/process-group-tracker.js';
import { createFakeToolServices, type FakeToolServices } from '../fakes/fake-tool-services.js';
import { findProcesses } from '../fakes/find-processes.js';
import { repositoryRoot } from '../fakes/run-compiled.js';

// Finding 3: an approved exec printed the agent's secrets from /proc/$PPID/environ.
const secretMarker = 'sk-security-suite-7f3a9c';

function configuredExec(dataDir: string) {
  const loaded = loadConfig({ channels: channelConfigSections(), root: repositoryRoot, environment: { ECHO_DATA_DIR: dataDir, OPENAI_API_KEY: secretMarker } });
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  return createExecTool({ environment: { PATH: loaded.config.tools.execPath }, sandbox: execSandboxFor(loaded.config), tracker: createProcessGroupTracker() });
}

function outputOf(outcome: Awaited<ReturnType<ReturnType<typeof createExecTool>['execute']>>): string {
  return outcome.ok ? outcome.output : outcome.error;
}

describe('exec runs in a sandbox (finding 3)', () => {
  let fake: FakeToolServices | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    delete process.env.ECHO_SECURITY_SUITE_SECRET;
    await fake?.cleanup();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  async function setUp(): Promise<{ context: ToolContext; tool: ReturnType<typeof createExecTool> }> {
    // The agent's own environment holds a secret, as it does when OPENAI_API_KEY is exported.
    process.env.ECHO_SECURITY_SUITE_SECRET = secretMarker;
    dataDir = await realpath(await mkdtemp(path.join(tmpdir(), 'echo-security-')));
    fake = await createFakeToolServices();
    return { context: fake.context, tool: configuredExec(dataDir) };
  }

  it('shows no secret in /proc/$PPID/environ or any /proc/*/environ', async () => {
    const { context, tool } = await setUp();
    const outcome = await tool.execute({ command: 'tr "\\0" "\\n" < /proc/$PPID/environ; for f in /proc/*/environ; do tr "\\0" "\\n" < "$f"; done; echo checked' }, context);
    expect(outputOf(outcome)).toContain('checked');
    expect(outputOf(outcome)).not.toContain(secretMarker);
  });

  it('sees only its own processes, never the agent', async () => {
    const { context, tool } = await setUp();
    const outcome = await tool.execute({ command: `cat /proc/*/cmdline | tr "\\0" " "; echo; echo ${process.pid}; ls /proc | grep -x ${process.pid} || echo no-agent` }, context);
    expect(outputOf(outcome)).toContain('no-agent');
    expect(outputOf(outcome)).not.toContain('vitest');
  });

  it('cannot read the data folder beside the workspace', async () => {
    const { context, tool } = await setUp();
    await mkdir(path.join(dataDir ?? '', 'audit'), { recursive: true });
    await writeFile(path.join(dataDir ?? '', 'audit', 'audit.jsonl'), secretMarker);
    const outcome = await tool.execute({ command: `cat ${path.join(dataDir ?? '', 'audit', 'audit.jsonl')}; echo done` }, context);
    expect(outputOf(outcome)).toContain('done');
    expect(outputOf(outcome)).not.toContain(secretMarker);
  });

  it('has no network by default: a local server gets no connection', async () => {
    const { context, tool } = await setUp();
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const script = `require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>console.log('refused',e.code))`;
      const outcome = await tool.execute({ command: `${process.execPath} -e "${script}"` }, context);
      expect(outputOf(outcome)).toContain('refused');
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('writes inside the workspace but not to the system', async () => {
    const { context, tool } = await setUp();
    const outcome = await tool.execute({ command: 'echo ok > inside.txt && cat inside.txt; touch /usr/echo-escape 2>&1 || echo refused' }, context);
    expect(outputOf(outcome)).toContain('ok');
    expect(outputOf(outcome)).toContain('refused');
  });

  it('is refused with a clear message when bwrap is missing, and runs when the sandbox is configured off', async () => {
    fake = await createFakeToolServices();
    const refused = await createExecTool({ sandbox: { mode: 'bwrap', bwrapPath: undefined, network: false, hiddenPaths: [] } }).execute({ command: 'echo ran > ran.txt' }, fake.context);
    expect(refused).toEqual({ ok: false, kind: 'business', error: missingSandboxMessage });
    const unsandboxed = await createExecTool({ sandbox: { mode: 'off' } }).execute({ command: 'echo ran' }, fake.context);
    expect(unsandboxed).toMatchObject({ ok: true, output: '[exit code 0]\nran' });
  });

  it('kills live process groups when the tracker is told to (the app stopping)', async () => {
    fake = await createFakeToolServices();
    const tracker = createProcessGroupTracker();
    const tool = createExecTool({ tracker });
    const running = tool.execute({ command: 'sleep 30.0417' }, fake.context);
    for (let attempt = 0; attempt < 500 && (await findProcesses('30.0417', { program: 'sleep' })).length === 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(tracker.size()).toBe(1);
    expect(tracker.killAll()).toBe(1);
    await running;
    expect(await findProcesses('sleep 30.0417')).toEqual([]);
  });
});
