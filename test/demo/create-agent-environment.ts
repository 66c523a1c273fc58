import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Everything echo-agent reads, or could be steered by, from the environment of whoever runs the demo.
const agentPrefixes = ['TELEGRAM_', 'OPENAI_', 'ANTHROPIC_', 'WEBHOOK_', 'ECHO_', 'WECHAT_'];

/**
 * The environment for the demo's agent: the caller's environment without any echo-agent variable, every
 * variable config/default.yaml reads set to '' (so a developer's `.env` cannot fill one in: an empty value
 * wins over the file and means "use the default"), then the demo's own values.
 */
export function createAgentEnvironment(options: {
  readonly repositoryRoot: string;
  readonly inherited: Readonly<Record<string, string | undefined>>;
  readonly values: Readonly<Record<string, string>>;
}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.inherited)) {
    if (value === undefined || agentPrefixes.some((prefix) => name.startsWith(prefix))) continue;
    environment[name] = value;
  }
  const defaults = readFileSync(join(options.repositoryRoot, 'config', 'default.yaml'), 'utf8');
  for (const match of defaults.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) environment[match[1] ?? ''] = '';
  delete environment[''];
  return { ...environment, ...options.values };
}
