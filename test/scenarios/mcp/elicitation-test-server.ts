import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from '../../fakes/run-compiled.js';

/** The stdio server whose tools ask the person for input (test/fakes/elicitation-mcp-server.mjs). */
export const elicitationServerScript = join(repositoryRoot, 'test', 'fakes', 'elicitation-mcp-server.mjs');

/** One line the server wrote: a call started, or completed with the answer it received. */
export type ServerLogEntry = { readonly pid: number; readonly event: 'started' | 'completed'; readonly tool: string; readonly action?: string; readonly content?: Record<string, unknown> };

/** A folder for the server's log (mounted writable into its sandbox), read back by the test. */
export type ElicitationServerLog = { readonly folder: string; readonly file: string; entries(): ServerLogEntry[]; remove(): void };

/** Creates the log folder. */
export function createElicitationServerLog(): ElicitationServerLog {
  const folder = mkdtempSync(join(tmpdir(), 'echo-elicitation-'));
  const file = join(folder, 'server.jsonl');
  return {
    folder,
    file,
    entries: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as ServerLogEntry) : []),
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** YAML for the server as `asker` (its imports come from the project's node_modules, mounted read-only). */
export function elicitationYaml(input: { readonly log: ElicitationServerLog; readonly risk?: string; readonly sampling?: boolean; readonly extra?: readonly string[] }): string {
  return [
    'approvals:',
    '  explain: false',
    'mcp:',
    '  servers:',
    '    asker:',
    `      command: ${JSON.stringify(process.execPath)}`,
    `      args: [${JSON.stringify(elicitationServerScript)}]`,
    `      env: { ELICITATION_LOG: ${JSON.stringify(input.log.file)} }`,
    `      mounts: [${JSON.stringify(join(repositoryRoot, 'node_modules'))}, { path: ${JSON.stringify(input.log.folder)}, writable: true }]`,
    `      risk: ${input.risk ?? 'read_only'}`,
    ...(input.sampling === undefined ? [] : [`      sampling: ${input.sampling}`]),
    'tools:',
    '  alsoAllow: ["asker__*"]',
    ...(input.extra ?? []),
    '',
  ].join('\n');
}

/** The audit lines of an app's data folder. */
export function auditLines(dataDir: string): { kind: string; outcome: string; server?: string; reason?: string; arguments?: unknown }[] {
  const file = join(dataDir, 'audit', 'audit.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line)) : [];
}
