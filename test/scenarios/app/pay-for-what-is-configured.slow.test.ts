// `npm start` with no chat channel, no cluster, no MCP server and the default model endpoint: the packages of
// features nobody configured are not loaded (they cost start-up time and idle memory: docs/performance.md).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, environmentWithout, repositoryRoot } from '../../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';

let model: ScriptedModelServer;
let folder: string;

beforeAll(async () => {
  ensureBuilt();
  model = await createScriptedModelServer();
  folder = mkdtempSync(join(tmpdir(), 'echo-module-loads-'));
}, 120_000);
afterAll(async () => {
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Packages only a configured feature (or the first use of one) needs. */
const notNeededAtStart = [
  'undici', // the model client's connection pool and web_fetch: loaded with the first call
  'openai', // streamed answers only
  'pg',
  'pg-boss',
  'telegraf',
  'wechaty',
  '@modelcontextprotocol/client',
  'ajv',
  're2js',
  'unpdf',
  'sh-syntax', // the exec tool's syntax check: loaded with the first command
  'minisearch', // memory's keyword recall: memory.enabled
  '@a2a-js/sdk', // A2A in (channels.a2a-server.keys) and out (a2a.peers)
  'jose',
  'micromark', // the Markdown renderer: loaded with the channel that renders
  'mdast-util-from-markdown',
  'prom-client', // the gateway's metrics: loaded with the first event counted or the first scrape
  '@koa/bodyparser', // the gateway's JSON bodies: loaded with the first one
  'node-cron', // cron expressions: loaded with the first one read
  // Traces: loaded only when an OTEL_* variable names an endpoint (src/app/open-tracing.ts).
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/semantic-conventions',
];

/** Our own modules only a configured feature needs (paths under dist/). */
const ownNotNeededAtStart = [
  'channels/webhook/webhook-channel.js', // WEBHOOK_SECRET
  'channels/openai-api/openai-api-channel.js', // ECHO_API_KEYS
  'channels/qq/access-token-client.js', // QQ_APP_ID and QQ_APP_SECRET
  'src/mcp-server/create-mcp-serve-route.js', // mcp.serve
  'src/reviewer/create-approval-reviewer.js', // approvals.mode: smart
  'channels/a2a-server/a2a-server-channel.js', // channels.a2a-server.keys
  'src/memory/recall-facts.js', // memory.enabled (with the minisearch package)
  'src/memory/recall-exchanges.js', // memory.enabled (with the minisearch package)
  'src/memory/create-history-compactor.js', // memory.enabled
];

/** What a start loaded by its ready line: the packages, and our own modules as paths under dist/. */
type LoadedAtStart = { readonly packages: Set<string>; readonly own: Set<string> };

/** Starts `npm start` with the module recorder until its ready line; the packages it loaded. */
async function packagesLoadedAtStart(name: string, environment: Readonly<Record<string, string>> = {}): Promise<Set<string>> {
  return (await loadedAtStart(name, environment)).packages;
}

/** Starts `npm start` with the module recorder until its ready line; what it loaded. */
async function loadedAtStart(name: string, environment: Readonly<Record<string, string>> = {}): Promise<LoadedAtStart> {
  const loaded = await modulesLoadedAtStart(name, environment);
  return {
    packages: new Set(loaded.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? [])),
    own: new Set(ownModulesOf(loaded)),
  };
}

/**
 * Our own modules among loaded URLs, as paths under dist/. The start runs the bundle (scripts/bundle-app.mjs): a
 * loaded file of it stands for the compiled modules it holds (its bundle-meta.json); any other file is itself.
 */
function ownModulesOf(urls: readonly string[]): string[] {
  const meta = JSON.parse(readFileSync(resolve(repositoryRoot, 'dist', 'src', 'app', 'bundle-meta.json'), 'utf8')) as { chunks: Record<string, string[]> };
  return urls.flatMap((url) => {
    const path = url.includes('/node_modules/') ? undefined : /\/dist\/((?:src|channels|tools)\/.+)$/.exec(url)?.[1];
    if (path === undefined) return [];
    return meta.chunks[path] ?? [path];
  });
}

/** Starts `npm start` with the module recorder until its ready line; the URL of every module it loaded. */
async function modulesLoadedAtStart(name: string, environment: Readonly<Record<string, string>> = {}): Promise<string[]> {
    const log = join(folder, `${name}.log`);
    const child = spawn(process.execPath, ['--import', resolve(repositoryRoot, 'test', 'fakes', 'record-module-loads.mjs'), resolve(repositoryRoot, 'dist', 'src', 'app', 'main.js'), 'start'], {
      cwd: repositoryRoot,
      env: {
        ...environmentWithout('TELEGRAM_BOT_TOKEN', 'WECHAT_ENABLED', 'WEBHOOK_SECRET', 'ECHO_CONFIG', 'ECHO_STORAGE_URL', 'NODE_OPTIONS', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
        OPENAI_BASE_URL: model.url,
        ECHO_DATA_DIR: join(folder, 'data'),
        GATEWAY_PORT: '0',
        ECHO_LOG_LEVEL: 'warn',
        ECHO_TEST_MODULE_LOG: log,
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const exited = new Promise<void>((resolveExit) => child.on('exit', () => resolveExit()));
    try {
      await waitFor(() => stdout.includes('echo-agent is running'), 'the ready line', 30_000);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    return readFileSync(log, 'utf8').split('\n');
}

describe('npm start loads only what is configured', () => {
  it('reaches its ready line without the packages of features that are off', async () => {
    const loaded = await modulesLoadedAtStart('modules');
    const packages = new Set(loaded.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
    const own = new Set(ownModulesOf(loaded));
    // The recorder works: the packages and modules every start needs are there, out of the bundle's chunks.
    expect(loaded.some((url) => /\/dist\/src\/app\/chunk-[A-Z0-9]+\.js$/.test(url))).toBe(true);
    expect(packages).toContain('zod');
    expect(own).toContain('src/config/load-config.js');
    expect(own).toContain('channels/webhook/webhook-adapter.js');
    // Channels, the MCP server and the reviewer nobody configured: their adapters load, their modules do not.
    expect(ownNotNeededAtStart.filter((file) => own.has(file))).toEqual([]);
    // yaml is not in the list: the YAML parser is required (not imported) and only for a file that is not the compiled
    // config/default.yaml; test/unit/config/compiled-default-config.slow.test.ts shows a start does not load it.
    // koa is not in either list: the gateway listens before it loads, and it loads right after (maybe before the kill).
    expect(notNeededAtStart.filter((name) => packages.has(name))).toEqual([]);
  }, 60_000);

  it('loads the OpenTelemetry SDK once an OTEL_* variable names an endpoint (the recorder would see it)', async () => {
    // Nothing listens there: the exporter only fails to send, after the ready line.
    const packages = await packagesLoadedAtStart('modules-traced', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(packages).toContain('@opentelemetry/sdk-trace-base');
    expect(packages).toContain('@opentelemetry/exporter-trace-otlp-http');
  }, 60_000);

  it('loads nothing of the web console while it is off, and mounts it once CONSOLE_ENABLED=true', async () => {
    const consoleFiles = (urls: readonly string[]) => ownModulesOf(urls).filter((path) => path.startsWith('src/console/'));
    expect(consoleFiles(await modulesLoadedAtStart('modules-console-off'))).toEqual([]);
    expect(consoleFiles(await modulesLoadedAtStart('modules-console-on', { CONSOLE_ENABLED: 'true' }))).toContain('src/console/create-console-routes.js');
  }, 60_000);
});
