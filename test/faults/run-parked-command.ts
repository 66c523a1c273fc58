import { join } from 'node:path';
import { expect } from 'vitest';
import { environmentWithout, runCompiled } from '../fakes/run-compiled.js';
import type { AgentUnderFault } from './agent-under-fault.js';

/** `npm run parked [words…]` against a stopped agent's data folder and config; its output, after checking it exited 0. */
export async function runParkedCommand(agent: AgentUnderFault, ...words: string[]): Promise<string> {
  const result = await runCompiled(['parked', ...words, '--config', join(agent.workFolder, 'fault.yaml')], { environment: { ...environmentWithout('ECHO_CONFIG', 'ECHO_STORAGE_URL'), ECHO_DATA_DIR: agent.dataDir } });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}
