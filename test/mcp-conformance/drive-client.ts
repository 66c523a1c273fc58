// The client under test for the MCP conformance suite's client scenarios. The suite starts a server for a
// scenario and runs this with its URL as the last argument (MCP_CONFORMANCE_SCENARIO names the scenario,
// MCP_CONFORMANCE_CONTEXT carries credentials some scenarios hand the client). This runs echo-agent itself:
// `node dist/src/app/main.js chat` (the terminal channel), with the scenario's server configured under
// mcp.servers.conformance, and a scripted model that asks for every tool the server offers, once. So the suite sees
// echo-agent's real MCP path: the config, createMcpToolSource, the connection, the registry's execute and the agent
// loop; nothing here speaks MCP itself.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createScriptedModelServer, type ScriptedRequestBody } from '../fakes/scripted-model-server.js';
import { conformanceServerYaml } from './conformance-server-yaml.js';

/** Arguments the scripted model gives the scenario tools that take some; every other tool gets `{}`. */
const toolArguments: Readonly<Record<string, Readonly<Record<string, unknown>>>> = { conformance__add_numbers: { a: 2, b: 3 } };

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');

async function main(): Promise<number> {
  const serverUrl = process.argv.at(-1);
  if (serverUrl === undefined || !/^https?:\/\//.test(serverUrl)) {
    process.stderr.write('usage: drive-client <server-url> (the conformance suite appends it)\n');
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const model = await createScriptedModelServer();
  // First request: call every tool of the scenario's server at once; next: say what came back.
  model.setFallback((body) => {
    const results = (body.messages ?? []).filter((message) => message.role === 'tool');
    if (results.length > 0) return { text: `conformance ${scenario}: ${results.map((message) => String(message.content)).join(' | ')}` };
    const offered = offeredConformanceTools(body);
    if (offered.length === 0) return { text: `conformance ${scenario}: no tools offered` };
    return { toolCalls: offered.map((name) => ({ name, arguments: toolArguments[name] ?? {} })) };
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'echo-conformance-'));
  try {
    const configFile = join(dataDir, 'conformance.yaml');
    writeFileSync(configFile, conformanceServerYaml({ url: serverUrl, context: process.env.MCP_CONFORMANCE_CONTEXT }));
    const code = await runChat({ configFile, dataDir, modelUrl: model.url, line: `Use the conformance tools (${scenario}).` });
    process.stderr.write(`drive-client: ${scenario}: echo-agent chat exited ${code}; ${model.requests.length} model requests\n`);
    return code ?? 1;
  } finally {
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function offeredConformanceTools(body: ScriptedRequestBody): string[] {
  const tools = (body.tools ?? []) as readonly { readonly function?: { readonly name?: string } }[];
  return tools.map((tool) => tool.function?.name ?? '').filter((name) => name.startsWith('conformance__'));
}

/** Runs `echo-agent chat` with one line on stdin; its stdout and stderr go to ours (the suite keeps them). */
function runChat(input: { readonly configFile: string; readonly dataDir: string; readonly modelUrl: string; readonly line: string }): Promise<number | null> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(repositoryRoot, 'dist', 'src', 'app', 'main.js'), 'chat', '--config', input.configFile], {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? tmpdir(),
        OPENAI_BASE_URL: input.modelUrl,
        OPENAI_API_KEY: 'conformance',
        ECHO_DATA_DIR: input.dataDir,
        ECHO_LOG_LEVEL: process.env.ECHO_LOG_LEVEL ?? 'warn',
        ...(process.env.ECHO_SECRET_KEY === undefined ? {} : { ECHO_SECRET_KEY: process.env.ECHO_SECRET_KEY }),
      },
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) => resolveRun(code));
    child.stdin.end(`${input.line}\n`);
  });
}

process.exitCode = await main();
