import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchTree } from './bench-tree.js';
import { repositoryRoot } from './bench-paths.js';
import { startAgent, stopAgent } from './startup-bench.js';
import { findFreePort } from '../fakes/telegram-emulator.js';

const serverScript = (name: string) => join(repositoryRoot, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');

/** The two MCP servers of `startup.readyMsWithMcp`, and the config file that names them. */
export type McpStartupSetup = { readonly configFile: string; close(): void };

/**
 * `startup.readyMsWithMcp`: `main.js start` with two MCP servers configured, the filesystem server over stdio
 * (a child the agent starts) and the everything server over Streamable HTTP (started here beforehand, not timed).
 * Both are connected in parallel while the agent starts; the ready line waits at most their start-up timeout.
 */
export async function startMcpServers(): Promise<McpStartupSetup> {
  const folder = mkdtempSync(join(tmpdir(), 'echo-bench-mcp-'));
  const port = await freePort();
  const everything = spawn(process.execPath, [serverScript('server-everything'), 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  const close = () => {
    everything.kill('SIGTERM');
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await listening(everything);
  } catch (error) {
    close();
    throw error;
  }
  const configFile = join(folder, 'mcp.yaml');
  writeFileSync(
    configFile,
    [
      'mcp:',
      '  servers:',
      '    files:',
      `      command: ${JSON.stringify(process.execPath)}`,
      `      args: [${JSON.stringify(serverScript('server-filesystem'))}, ${JSON.stringify(folder)}]`,
      '    everything:',
      `      url: http://127.0.0.1:${port}/mcp`,
      'tools:',
      '  alsoAllow: ["files__*", "everything__*"]',
      '',
    ].join('\n'),
  );
  return { configFile, close };
}

/** One start of a tree's agent with the MCP servers of `setup`, to its ready line. */
export async function measureStartWithMcp(modelUrl: string, setup: McpStartupSetup, tree: BenchTree): Promise<number> {
  const agent = await startAgent(modelUrl, { ECHO_CONFIG: setup.configFile }, tree);
  await stopAgent(agent);
  return agent.process.readyMs;
}

function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the everything server exited (${code}): ${text}`)));
  });
}

const freePort = findFreePort;
