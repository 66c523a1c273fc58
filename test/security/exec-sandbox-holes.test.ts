import { channelConfigSections } from '../../src/app/builtin-channels.js';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execSandboxFor } from '../../src/app/exec-sandbox-for.js';
import type { Config } from '../../src/config/config-schema.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createExecTool } from '../../tools/exec-tool.js';
import { findPidsCgroupDir } from '../../tools/pids-cgroups.js';
import { createProcessGroupTracker } from '../../tools/process-group-tracker.js';
import { createFakeToolServices, type FakeToolServices } from '../fakes/fake-tool-services.js';
import { repositoryRoot } from '../fakes/run-compiled.js';

// Issue 24: the sandbox reached host UNIX sockets, read the config file named by ECHO_CONFIG, and had no limits.
const secretMarker = 'sk-sandbox-holes-41c7e2';
type ExecOutcome = Awaited<ReturnType<ReturnType<typeof createExecTool>['execute']>>;

function outputOf(outcome: ExecOutcome): string {
  return outcome.ok ? outcome.output : outcome.error;
}

function loaded(options: { readonly root?: string; readonly configFile?: string; readonly dataDir: string; readonly network?: boolean }) {
  const result = loadConfig({ channels: channelConfigSections(),
    root: options.root ?? repositoryRoot,
    configFile: options.configFile,
    // Without an environment given, loadConfig reads the root's .env as `npm start` does.
    ...(options.root === undefined ? { environment: { ECHO_DATA_DIR: options.dataDir, OPENAI_API_KEY: secretMarker, ECHO_EXEC_NETWORK: String(options.network ?? false) } } : {}),
  });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result;
}

function execFor(result: ReturnType<typeof loaded>, limits?: Config['tools']['limits']) {
  const sandbox = execSandboxFor(result.config, { root: result.root, loadedFiles: result.loadedFiles });
  return createExecTool({ environment: { PATH: result.config.tools.execPath }, sandbox, tracker: createProcessGroupTracker(), limits: limits ?? result.config.tools.limits });
}

// A UNIX socket listener; `connections` counts who got through.
async function listenOn(socketPath: string): Promise<{ server: Server; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.end('hello from the host\n');
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  return { server, connections: () => connections };
}

const connectScript = (socketPath: string) =>
  `${process.execPath} -e 'require("net").connect(${JSON.stringify(socketPath)}).on("connect",()=>{console.log("connected");process.exit(0)}).on("error",(e)=>console.log("refused",e.code))'`;

describe('the sandbox closes the remaining holes (issue 24)', () => {
  let fake: FakeToolServices | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await fake?.cleanup();
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function scratch(parent: string): string {
    const folder = realpathSync(mkdtempSync(path.join(parent, 'echo-holes-')));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    return folder;
  }

  it('cannot connect to a host UNIX socket under /run, /var/tmp or an abstract one, even with network allowed', async () => {
    fake = await createFakeToolServices();
    const dataDir = scratch(tmpdir());
    const sockets = [path.join(scratch('/run'), 'service.sock'), path.join(scratch('/var/tmp'), 'db.sock'), `\0echo-holes-${process.pid}`];
    for (const network of [false, true]) {
      const tool = execFor(loaded({ dataDir, network }));
      for (const socketPath of sockets) {
        const listener = await listenOn(socketPath);
        try {
          const outcome = await tool.execute({ command: connectScript(socketPath) }, fake.context);
          expect(outputOf(outcome), `${JSON.stringify(socketPath)} network ${network}`).toContain('refused');
          expect(listener.connections()).toBe(0);
        } finally {
          listener.server.close();
        }
      }
    }
  });

  it('still makes socket pairs and TCP sockets (only UNIX sockets are refused)', async () => {
    fake = await createFakeToolServices();
    const tool = execFor(loaded({ dataDir: scratch(tmpdir()) }));
    const outcome = await tool.execute({ command: `python3 -c 'import socket; socket.socketpair(); socket.socket(); print("pair and tcp ok")'` }, fake.context);
    expect(outputOf(outcome)).toContain('pair and tcp ok');
  });

  it('hides the config file actually loaded (--config / ECHO_CONFIG) and the .env actually read, wherever they live', async () => {
    fake = await createFakeToolServices();
    // A project outside the current folder, with its .env, and a config overlay elsewhere (not under /tmp, which the sandbox covers anyway).
    const project = scratch('/var/tmp');
    mkdirSync(path.join(project, 'config'));
    copyFileSync(path.join(repositoryRoot, 'config', 'default.yaml'), path.join(project, 'config', 'default.yaml'));
    writeFileSync(path.join(project, '.env'), `OPENAI_API_KEY=${secretMarker}-dotenv\nECHO_DATA_DIR=${scratch(tmpdir())}\n`);
    const configFile = path.join(scratch('/var/tmp'), 'agent.yaml');
    writeFileSync(configFile, `tools:\n  credentials:\n    web_fetch:\n      token: ${secretMarker}-credential\n`);
    const result = loaded({ root: project, configFile, dataDir: '' });
    expect(result.loadedFiles).toEqual([path.join(project, 'config', 'default.yaml'), configFile, path.join(project, '.env')]);
    const outcome = await execFor(result).execute({ command: `cat ${configFile} ${path.join(project, '.env')} ${path.join(project, 'config', 'default.yaml')}; echo checked` }, fake.context);
    expect(outputOf(outcome)).toContain('checked');
    expect(outputOf(outcome)).not.toContain(secretMarker);
  });

  it('stops a memory hog at tools.limits.memoryMb, and the next command runs', async () => {
    fake = await createFakeToolServices();
    const tool = execFor(loaded({ dataDir: scratch(tmpdir()) }), { memoryMb: 128, cpuSeconds: 60, processes: 256 });
    const hog = await tool.execute({ command: `${process.execPath} -e 'const kept=[];for(let i=0;i<40;i++)kept.push(Buffer.alloc(10*1024*1024,1));console.log("allocated 400 MB")'` }, fake.context);
    expect(outputOf(hog)).not.toContain('allocated 400 MB');
    expect(outputOf(hog)).toMatch(/allocation failed|out of memory/i);
    expect(outputOf(await tool.execute({ command: 'echo still fine' }, fake.context))).toContain('still fine');
  });

  it('stops a CPU spinner at tools.limits.cpuSeconds, long before its timeout', async () => {
    fake = await createFakeToolServices();
    const tool = execFor(loaded({ dataDir: scratch(tmpdir()) }), { memoryMb: 512, cpuSeconds: 1, processes: 256 });
    const outcome = await tool.execute({ command: `${process.execPath} -e 'for(;;){}'`, timeoutSec: 20 }, fake.context);
    expect(outcome).toMatchObject({ ok: true, metadata: { exitCode: 152 } });
    expect(outputOf(outcome)).toContain('killed by SIGXCPU, its CPU time limit (tools.limits.cpuSeconds) was reached');
  });

  // RLIMIT_NPROC does not bind root; there only a pids cgroup holds (as on this CI machine): say so rather than pass.
  const processLimitHolds = process.getuid?.() !== 0 || findPidsCgroupDir() !== undefined;
  it.runIf(processLimitHolds)('stops a fork bomb at tools.limits.processes, and the agent and the next command are fine', async () => {
    fake = await createFakeToolServices();
    const tool = execFor(loaded({ dataDir: scratch(tmpdir()) }), { memoryMb: 512, cpuSeconds: 60, processes: 48 });
    // A bounded bomb: try 300 processes, count how many the sandbox let start, then end them all.
    const bomb = `const {spawn}=require("child_process");let started=0,refused=0,settled=0;const kids=[];
for(let i=0;i<300;i++){const kid=spawn("sleep",["30"]);kids.push(kid);kid.on("spawn",()=>{started++;done()}).on("error",()=>{refused++;done()})}
function done(){if(++settled===300){console.log("started",started,"refused",refused);for(const kid of kids)kid.kill("SIGKILL")}}`;
    const outcome = await tool.execute({ command: `${process.execPath} -e '${bomb}'` }, fake.context);
    const [, started, refused] = /started (\d+) refused (\d+)/.exec(outputOf(outcome)) ?? [];
    expect(Number(started)).toBeLessThan(48);
    expect(Number(refused)).toBeGreaterThan(250);
    expect(outputOf(await tool.execute({ command: 'echo still fine' }, fake.context))).toContain('still fine');
  });
});
