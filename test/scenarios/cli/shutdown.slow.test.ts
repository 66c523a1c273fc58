import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, environmentWithout, repositoryRoot } from '../../fakes/run-compiled.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';

let model: ScriptedModelServer;
let dataDir: string;

beforeAll(async () => {
  ensureBuilt();
  model = await createScriptedModelServer();
  dataDir = mkdtempSync(join(tmpdir(), 'echo-shutdown-'));
}, 120_000);
afterAll(async () => {
  await model.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start and shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints one line per channel, then stops on ${signal} and exits 0`, async () => {
      const child = spawn(process.execPath, [resolve(repositoryRoot, 'dist', 'src', 'app', 'main.js'), 'start'], {
        cwd: repositoryRoot,
        env: { ...environmentWithout('TELEGRAM_BOT_TOKEN', 'WECHAT_ENABLED', 'WEBHOOK_SECRET', 'ECHO_CONFIG'), OPENAI_BASE_URL: model.url, ECHO_DATA_DIR: dataDir, GATEWAY_PORT: '0', ECHO_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      const exited = new Promise<number | null | string>((resolveExit) => child.on('exit', (code, killedBy) => resolveExit(code ?? killedBy)));
      await waitFor(() => stdout.includes('echo-agent is running'), 'the ready line', 20_000);
      expect(stdout).toMatch(/^telegram: off \(/m);
      expect(stdout).toMatch(/^wechat: off \(/m);
      expect(stdout).toMatch(/^webhook: /m);
      // With every channel off it must still run until told to stop (it once exited on its own here).
      await new Promise((resolveWait) => setTimeout(resolveWait, 300));
      expect(child.exitCode).toBeNull();
      child.kill(signal);
      expect(await exited).toBe(0);
    });
  }
});
