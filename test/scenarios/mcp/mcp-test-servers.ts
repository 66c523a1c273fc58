import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from '../../fakes/run-compiled.js';
import { findFreePort } from '../../fakes/telegram-emulator.js';

/** The filesystem server's entry point, installed as a devDependency (never downloaded at test time). */
export const filesystemServerScript = join(repositoryRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const everythingServerScript = join(repositoryRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A free TCP port on 127.0.0.1 (the everything server takes its port from PORT and has no "0"). */
export const freePort = findFreePort;

/** `@modelcontextprotocol/server-everything` over Streamable HTTP, started from node_modules. */
export type EverythingServer = { readonly url: string; readonly child: ChildProcess; stop(): Promise<void> };

/** Starts the everything server on a free port (or the given one, to restart it) and waits until it listens. */
export async function startEverythingServer(port?: number): Promise<EverythingServer> {
  port ??= await freePort();
  const child = spawn(process.execPath, [everythingServerScript, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the everything server exited (${code}): ${text}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A folder the filesystem server is allowed to work in, removed by `remove()`. */
export function createNotesFolder(): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'echo-mcp-notes-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The pid of the filesystem server serving `folder` (its folder argument is unique to the test), or undefined. */
export function filesystemServerPid(folder: string): number | undefined {
  try {
    const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
    const line = lines.find((candidate) => candidate.includes(filesystemServerScript) && candidate.includes(folder));
    return line === undefined ? undefined : Number(line.trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
}

/** YAML for both servers: files over stdio, everything over HTTP, and a selection offering some of their tools. */
export function mcpYaml(input: { readonly notes: string; readonly everythingUrl: string }): string {
  return [
    'approvals:',
    '  explain: false',
    'mcp:',
    '  retryMaxSeconds: 1',
    '  servers:',
    '    files:',
    `      command: ${JSON.stringify(process.execPath)}`,
    `      args: [${JSON.stringify(filesystemServerScript)}, ${JSON.stringify(input.notes)}]`,
    // The server runs in the sandbox: it sees the notes folder only because it is mounted.
    `      mounts: [{ path: ${JSON.stringify(input.notes)}, writable: true }]`,
    '      risk: write',
    '      tools:',
    '        read_text_file: { risk: read_only }',
    '        list_directory: { risk: read_only }',
    '    everything:',
    `      url: ${input.everythingUrl}`,
    '      risk: write',
    '      tools:',
    '        echo: { risk: read_only }',
    'tools:',
    '  alsoAllow: ["files__*", "everything__echo"]',
    '  deny: ["files__move_file"]',
    '',
  ].join('\n');
}
