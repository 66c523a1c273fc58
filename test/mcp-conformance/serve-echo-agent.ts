// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config file written here uses its own ${VAR} interpolation.
// The server under test for the MCP conformance suite's server scenarios: echo-agent itself, `node
// dist/src/app/main.js start` (server mode), with `mcp.serve` on and one key made for this run only, its questions
// and cards going to the webhook channel (no chat service is needed). The suite's server mode cannot send a bearer
// key, and echo-agent has no keyless mode, so this also starts a small proxy on 127.0.0.1 that forwards each request
// to the gateway unchanged but for the Authorization header it adds: the suite sees echo-agent's real /mcp (the
// gateway, the key check, the SDK's Streamable HTTP transport, the tools), nothing here speaks MCP. Prints
// `url <proxy url>` once the gateway answers, and stops echo-agent on SIGTERM or SIGINT.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as forward, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createScriptedModelServer } from '../fakes/scripted-model-server.js';

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');
/** Longest echo-agent may take to answer /healthz after it was started. */
const startUpWaitMs = 30_000;
/** Headers that belong to one hop, not to the request the proxy forwards. */
const hopHeaders = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'authorization']);

/** The config file echo-agent serves the scenarios with: mcp.serve with the one key, mapped to a webhook chat. */
function serveYaml(): string {
  return [
    'mcp:',
    '  serve:',
    '    enabled: true',
    '    path: /mcp',
    '    keys:',
    '      - name: conformance',
    // From the environment, as the config reference says keys should be written.
    '        key: ${MCP_CONFORMANCE_SERVE_KEY}',
    '        user: conformance-suite',
    '        chat: { channel: webhook, chatId: conformance }',
    '        client: the MCP conformance suite',
    '        callsPerMinute: 600',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const model = await createScriptedModelServer();
  model.setFallback(() => ({ text: 'The conformance suite does not talk to the model.' }));
  const dataDir = mkdtempSync(join(tmpdir(), 'echo-conformance-serve-'));
  const configFile = join(dataDir, 'serve.yaml');
  writeFileSync(configFile, serveYaml());
  const key = randomBytes(24).toString('base64url');
  const gatewayPort = await findFreePort();
  const agent = spawn(process.execPath, [join(repositoryRoot, 'dist', 'src', 'app', 'main.js'), 'start', '--config', configFile], {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? tmpdir(),
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: randomBytes(12).toString('hex'),
      ECHO_DATA_DIR: dataDir,
      ECHO_LOG_LEVEL: process.env.ECHO_LOG_LEVEL ?? 'warn',
      ECHO_SECRET_KEY: randomBytes(24).toString('base64url'),
      WEBHOOK_SECRET: randomBytes(24).toString('base64url'),
      MCP_CONFORMANCE_SERVE_KEY: key,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String(gatewayPort),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let proxy: Server | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    proxy?.close();
    await stopAgent(agent);
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  agent.on('exit', (code) => {
    if (!stopping) {
      process.stderr.write(`serve-echo-agent: echo-agent exited early (${code})\n`);
      void stop(1);
    }
  });
  if (!(await waitForHealth(gatewayPort))) {
    process.stderr.write(`serve-echo-agent: the gateway did not answer on 127.0.0.1:${gatewayPort} within ${startUpWaitMs / 1000} s\n`);
    await stop(1);
    return;
  }
  proxy = await startKeyProxy({ gatewayPort, key });
  process.stdout.write(`url http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp\n`);
}

/** A port free now, for the gateway (it reports the configured port, not the one the kernel picks for 0). */
function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(port: number): Promise<boolean> {
  const deadline = Date.now() + startUpWaitMs;
  while (Date.now() < deadline) {
    const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status < 500,
      () => false,
    );
    if (answered) return true;
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  return false;
}

/**
 * The proxy: every request goes to the gateway with the same method, path, headers (Host and Origin included, so
 * what the suite sends is what echo-agent judges) and body, plus `Authorization: Bearer <key>`; the answer streams back.
 */
function startKeyProxy(input: { readonly gatewayPort: number; readonly key: string }): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (!hopHeaders.has(name)) headers[name] = value;
    headers.authorization = `Bearer ${input.key}`;
    const upstream = forward({ host: '127.0.0.1', port: input.gatewayPort, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`serve-echo-agent proxy: ${error.message}`);
    });
    incoming.pipe(upstream);
  });
  return new Promise((resolveServer) => server.listen(0, '127.0.0.1', () => resolveServer(server)));
}

/** SIGTERM (echo-agent finishes its turns and stops), SIGKILL if it has not stopped after 15 s. */
function stopAgent(agent: ChildProcess): Promise<void> {
  if (agent.exitCode !== null || agent.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const kill = setTimeout(() => agent.kill('SIGKILL'), 15_000);
    agent.once('exit', () => {
      clearTimeout(kill);
      resolveStop();
    });
    agent.kill('SIGTERM');
  });
}

await main();
