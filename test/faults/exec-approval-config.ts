import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Config for tests that approve `exec`: the coding profile plus exec (which always asks), the workspace in
 * `<work folder>/workspace` (created here), and no risk explanation (it would take a scripted model step).
 */
export function execApprovalYaml(workFolder: string): string {
  const workspace = join(workFolder, 'workspace');
  mkdirSync(workspace, { recursive: true });
  return ['tools:', '  profile: coding', '  alsoAllow: [exec]', `  workspaceDir: ${JSON.stringify(workspace)}`, 'approvals:', '  explain: false', ''].join('\n');
}
