import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, environmentWithout, runCompiled } from '../../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';

let model: ScriptedModelServer;
let dataDir: string;
const modelVariables = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ECHO_CONFIG', 'ECHO_MODEL', 'ECHO_DATA_DIR', 'ECHO_STORAGE_URL', 'ECHO_LOG_LEVEL'];

beforeAll(async () => {
  ensureBuilt();
  model = await createScriptedModelServer();
  dataDir = mkdtempSync(join(tmpdir(), 'echo-cli-'));
}, 120_000);
afterAll(async () => {
  await model.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run chat (compiled, piped stdin)', () => {
  it('answers each line in order on stdout, continues the conversation, and exits 0 at end of input', async () => {
    const before = model.requests.length;
    const result = await runCompiled(['chat'], {
      environment: { ...environmentWithout(...modelVariables), OPENAI_BASE_URL: model.url, ECHO_DATA_DIR: dataDir },
      input: 'hello\nsecond line\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('echo: hello\necho: second line\n');
    const second = model.requests[before + 1]?.body?.messages ?? [];
    expect(JSON.stringify(second)).toContain('echo: hello');
  });

  it('says in one sentence that no model is configured, without a stack trace', async () => {
    const result = await runCompiled(['chat'], { environment: { ...environmentWithout(...modelVariables), ECHO_DATA_DIR: dataDir }, input: 'hi\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No model is configured: set OPENAI_API_KEY');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a bad config file with the key path and a hint, never echoing a secret', async () => {
    const configFile = join(dataDir, 'bad.yaml');
    writeFileSync(configFile, 'gateway:\n  port: not-a-port\nchannels:\n  webhook:\n    secret: [hunter2-secret-value]\n');
    const result = await runCompiled(['start', '--config', configFile], { environment: { ...environmentWithout(...modelVariables), OPENAI_BASE_URL: model.url } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('gateway.port');
    expect(result.stderr).toContain('channels.webhook.secret');
    expect(result.stderr).not.toContain('hunter2-secret-value');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('answers plainly in the chat when the model endpoint is unreachable', async () => {
    const configFile = join(dataDir, 'no-retries.yaml');
    writeFileSync(configFile, 'model:\n  retries: 0\n');
    const result = await runCompiled(['chat', '--config', configFile], {
      environment: { ...environmentWithout(...modelVariables), OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ECHO_DATA_DIR: dataDir, ECHO_LOG_LEVEL: 'silent' },
      input: 'hello\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('I could not reach the model');
  });

  it('stops with one sentence when the configured Redis does not answer, instead of hanging', async () => {
    const result = await runCompiled(['start'], {
      environment: { ...environmentWithout(...modelVariables), OPENAI_BASE_URL: model.url, ECHO_DATA_DIR: dataDir, ECHO_STORAGE_URL: 'redis://127.0.0.1:6390', GATEWAY_PORT: '0' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('did not answer within 5 s: is it running and reachable?');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
