import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';

let model: ScriptedModelServer;
let test: TestApp;
let folder: string;

beforeAll(async () => {
  model = await createScriptedModelServer();
  folder = mkdtempSync(join(tmpdir(), 'echo-timeout-'));
  const configFile = join(folder, 'config.yaml');
  writeFileSync(configFile, 'agent:\n  turnTimeoutMs: 300\n');
  test = await startTestApp({ mode: 'chat', configFile, environment: { OPENAI_BASE_URL: model.url } });
});
afterAll(async () => {
  await test.stop();
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('a turn that runs too long', () => {
  it('is stopped at agent.turnTimeoutMs, the user is told, and the session takes the next message', async () => {
    model.enqueue({ text: 'far too late', delayMs: 5000 });
    test.terminalInput.write('think about this for a long time\n');
    await waitFor(() => test.terminalText().includes('That took too long, so I stopped.'), 'the timeout answer');
    expect(test.terminalText()).not.toContain('far too late');
    test.terminalInput.write('and now quickly\n');
    await waitFor(() => test.terminalText().includes('echo: and now quickly'), 'the next answer');
  });
});
