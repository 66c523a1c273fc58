import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const configuredPrefixes = ['TELEGRAM_', 'WECHAT_', 'WEBHOOK_', 'GATEWAY_', 'QQ_', 'ECHO_', 'OPENAI_', 'ANTHROPIC_'];

/**
 * The environment for `node dist/src/app/main.js start` in a benchmark: this process's environment
 * without any echo-agent setting (nor NODE_OPTIONS, unless BENCH_CHILD_NODE_OPTIONS is set), a fresh
 * data folder, the gateway on a random port, WeChat off, the model at `modelUrl`, plus `extra`.
 */
export function createAgentEnvironment(options: { readonly modelUrl: string; readonly extra?: Readonly<Record<string, string>> }): { environment: Record<string, string | undefined>; dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'echo-bench-agent-'));
  const environment: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!configuredPrefixes.some((prefix) => name.startsWith(prefix)) && name !== 'NODE_OPTIONS') environment[name] = value;
  }
  Object.assign(environment, {
    OPENAI_BASE_URL: options.modelUrl,
    OPENAI_API_KEY: 'bench-key',
    ECHO_DATA_DIR: dataDir,
    WEBHOOK_PORT: '0',
    // The gateway's port: GATEWAY_PORT now, WEBHOOK_PORT in trees from before the gateway was core (--against).
    GATEWAY_PORT: '0',
    WECHAT_ENABLED: 'false',
    ...options.extra,
  });
  // To profile the agents: BENCH_CHILD_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/echo-profiles".
  if (process.env.BENCH_CHILD_NODE_OPTIONS) environment.NODE_OPTIONS = process.env.BENCH_CHILD_NODE_OPTIONS;
  return { environment, dataDir };
}
