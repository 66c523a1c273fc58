import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, environmentWithout, runCompiled } from '../../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';

let model: ScriptedModelServer;
let dataDir: string;
const clean = () => ({ ...environmentWithout('ECHO_CONFIG', 'ECHO_DATA_DIR', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'), ECHO_DATA_DIR: dataDir });

beforeAll(async () => {
  ensureBuilt();
  model = await createScriptedModelServer();
  dataDir = mkdtempSync(join(tmpdir(), 'echo-commands-'));
}, 120_000);
afterAll(async () => {
  await model.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const toolNames = (stdout: string) =>
  stdout
    .split('\n')
    .slice(2)
    .map((line) => line.split(/\s+/)[0])
    .filter((name): name is string => name !== undefined && name !== '')
    .sort();

describe('npm run tools and npm run audit', () => {
  it('prints exactly the messaging catalogue by default, with risk and approval', async () => {
    const result = await runCompiled(['tools'], { environment: clean() });
    expect(result.code).toBe(0);
    expect(toolNames(result.stdout)).toEqual(['ask_user', 'cancel_task', 'list_tasks', 'memory', 'message', 'schedule_task', 'session_search', 'todo', 'web_fetch']);
    expect(result.stdout).toMatch(/^schedule_task\s+write\s+always\s+scheduler\.write/m);
  });

  it('expands another profile, and refuses an unknown one', async () => {
    const full = await runCompiled(['tools', '--profile', 'full'], { environment: clean() });
    expect(toolNames(full.stdout)).toContain('exec');
    expect(full.stdout).toMatch(/^exec\s+exec\s+always/m);
    const bogus = await runCompiled(['tools', '--profile', 'everything'], { environment: clean() });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('Unknown profile "everything". Use one of: minimal, messaging, coding, full.');
  });

  it('prints the audit entries of a conversation that called a tool, secrets masked', async () => {
    model.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'remember', key: 'deploy', value: 'run deploy --token=tok-123456' } }] }, { text: 'Noted.' });
    const chat = await runCompiled(['chat'], { environment: { ...clean(), OPENAI_BASE_URL: model.url }, input: 'remember my token\n' });
    expect(chat.stdout).toBe('Noted.\n');
    const audit = await runCompiled(['audit'], { environment: clean() });
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/tool-call memory ok by local/);
    expect(audit.stdout).not.toContain('tok-123456');
  });

  it('npm run usage prints today and this month from the store: the calls of a chat with their tokens, unpriced without a price', async () => {
    model.enqueue({ text: 'Counted.', usage: { input: 1234, cachedInput: 100, output: 56 } });
    const chat = await runCompiled(['chat'], { environment: { ...clean(), OPENAI_BASE_URL: model.url }, input: 'count me\n' });
    expect(chat.stdout).toBe('Counted.\n');
    const usage = await runCompiled(['usage'], { environment: clean() });
    expect(usage.code).toBe(0);
    expect(usage.stdout).toMatch(/^\d{4}-\d{2}-\d{2} \(UTC\)\ndimension/);
    expect(usage.stdout).toMatch(/\norigin +user +\d+ +[\d,]+ +[\d,]+ +[\d,]+ +[\d,]+ +unpriced\n/);
    expect(usage.stdout).toMatch(/\nmodel +gpt-4o-mini +\d+ /);
    const refused = await runCompiled(['usage', '--day', 'yesterday'], { environment: clean() });
    expect(refused.code).toBe(2);
  });
});
