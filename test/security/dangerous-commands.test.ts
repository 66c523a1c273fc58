import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCatastrophicCommand } from '../../tools/catastrophic-commands.js';
import { createExecTool } from '../../tools/exec-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../fakes/fake-tool-services.js';

// Finding 6: each of these got past the old regex list (checked against it). The list is the last line behind approvals and the sandbox.
const reported = [
  'cd / && rm -rf *',
  'rm -rf /u*',
  'rm -rf /e?c',
  'cd /etc; rm -rf .',
  'bomb(){ bomb & bomb; }; bomb',
  'cd ~/.ssh && echo "ssh-ed25519 AAAA attacker" >> authorized_keys',
];

// The same ideas in other spellings: quoting, variables, subshells, substitutions, wrappers (a few of which the old list caught too).
const variants = [
  'cd /; rm -rf -- *',
  'rm -rf /[e]tc',
  'rm -rf "/"e"tc"',
  'X=/etc; rm -rf $X',
  '(cd /etc && rm -rf .)',
  'sh -c "cd / && rm -rf *"',
  'echo $(cd /usr && rm -rf ./)',
  'eval "rm -rf /"',
  "bash -c 'function f { f | f & }; f'",
  'echo "ssh-ed25519 AAAA attacker" >> ~/.ssh/authorized_keys',
  'cat key.pub >> $HOME/.ssh/authorized_keys',
  'echo key > ~/.ss?/authorized_keys',
  'tee -a /root/.ssh/authorized_keys < key.pub',
];

describe('dangerous commands are read by a shell lexer, not regexes (finding 6)', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it.each([...reported, ...variants])('never runs %s', async (command) => {
    expect(isCatastrophicCommand(command, { workingDirectory: '/srv/echo/data/workspace' })).toEqual(expect.any(String));
    fake = await createFakeToolServices();
    // Run for real, unsandboxed: only the list stands between the command and the machine, and a marker shows nothing ran.
    const outcome = await createExecTool({ sandbox: { mode: 'off' } }).execute({ command: `touch ran.marker; ${command}` }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('never run') });
    await expect(readFile(path.join(fake.workspaceDir, 'ran.marker'))).rejects.toThrow();
  });

  it.each([
    'rm -rf ./build dist',
    'cd build && rm -rf *',
    'rm -rf /tmp/echo-scratch',
    'cat ~/.ssh/known_hosts',
    'grep -r "rm -rf /" .',
    'f(){ echo hi; }; f; f',
    'cat <<EOF\nrm -rf /\nEOF',
    'git commit -m "never rm -rf /"',
  ])('still allows %s', (command) => {
    expect(isCatastrophicCommand(command, { workingDirectory: '/srv/echo/data/workspace' })).toBeUndefined();
  });

  it('refuses a command that is not valid shell instead of guessing how it reads', async () => {
    fake = await createFakeToolServices();
    const outcome = await createExecTool({ sandbox: { mode: 'off' } }).execute({ command: 'touch ran.marker; echo "unterminated' }, fake.context);
    expect(outcome).toMatchObject({ ok: false, kind: 'business', error: expect.stringContaining('not valid POSIX shell') });
    await expect(readFile(path.join(fake.workspaceDir, 'ran.marker'))).rejects.toThrow();
  });
});
