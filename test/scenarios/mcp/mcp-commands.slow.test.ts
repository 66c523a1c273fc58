import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, environmentWithout, runCompiled } from '../../fakes/run-compiled.js';
import { createNotesFolder, filesystemServerScript, freePort } from './mcp-test-servers.js';

let folder: ReturnType<typeof createNotesFolder>;
let configFile: string;
const clean = () => ({ ...environmentWithout('ECHO_CONFIG', 'ECHO_DATA_DIR', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'), ECHO_DATA_DIR: join(folder.path, 'data') });

beforeAll(async () => {
  ensureBuilt();
  folder = createNotesFolder();
  configFile = join(folder.path, 'mcp.yaml');
  // `files` works; `broken` points at a port nothing listens on.
  writeFileSync(
    configFile,
    [
      'mcp:',
      '  servers:',
      '    files:',
      `      command: ${JSON.stringify(process.execPath)}`,
      `      args: [${JSON.stringify(filesystemServerScript)}, ${JSON.stringify(folder.path)}]`,
      `      mounts: [${JSON.stringify(folder.path)}]`,
      '      tools:',
      '        read_text_file: { risk: read_only }',
      '    broken:',
      `      url: http://127.0.0.1:${await freePort()}/mcp`,
      'tools:',
      '  alsoAllow: ["files__*"]',
      '  deny: ["files__move_file"]',
      '',
    ].join('\n'),
  );
}, 120_000);
afterAll(() => folder.remove());

describe('npm run tools and npm run doctor with MCP servers', () => {
  it('lists each MCP tool with its server, risk and whether the profile offers it, and says which server is down', async () => {
    const result = await runCompiled(['tools', '--config', configFile], { environment: clean() });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^MCP tools: 13 of 14 offered/m);
    expect(result.stdout).toMatch(/^files__read_text_file\s+files\s+read_only\s+yes\s+Read the complete contents/m);
    expect(result.stdout).toMatch(/^files__write_file\s+files\s+write\s+yes/m);
    expect(result.stdout).toMatch(/^files__move_file\s+files\s+write\s+no/m);
    expect(result.stdout).toMatch(/^server broken: down \(could not connect: .+\): its tools are not listed$/m);
  });

  it('the doctor reports the server that is up and fails the one that is not', async () => {
    const result = await runCompiled(['doctor', '--config', configFile], { environment: clean() });
    expect(result.stdout).toMatch(/^✓ mcp\s+files \(stdio: .+\) is up with 14 tools, default risk write$/m);
    expect(result.stdout).toMatch(/^✗ mcp\s+broken \(Streamable HTTP: http:\/\/127\.0\.0\.1:\d+\/mcp\) is down: could not connect: .+; the agent keeps retrying it/m);
    expect(result.code).toBe(1);
  });
});
