import { describe, expect, it } from 'vitest';
import { tokenizeShell, wordText } from '../../../tools/shell-lexer.js';
import { formatShellPath, resolveShellPath } from '../../../tools/shell-paths.js';

const words = (text: string) => tokenizeShell(text).map((token) => (token.kind === 'word' ? wordText(token.parts) : `<${token.operator === '\n' ? 'newline' : token.operator}>`));

describe('tokenizeShell', () => {
  it('removes quotes and escapes, keeps operators and redirections apart', () => {
    expect(words(`rm -rf "/"e'tc' a\\ b; echo x>>out 2>&1 && cd ~`)).toEqual(['rm', '-rf', '/etc', 'a b', '<;>', 'echo', 'x', '<>>>', 'out', '<>&>', '1', '<&&>', 'cd', '~']);
  });

  it('keeps parameters and command substitutions, with the substituted script', () => {
    const [first, second] = tokenizeShell('echo $HOME/x "$(rm -rf /)"');
    expect(first).toMatchObject({ kind: 'word', raw: 'echo' });
    expect(second?.kind === 'word' ? second.substitutions : []).toEqual([]);
    const substituted = tokenizeShell('echo $HOME/x "$(rm -rf /)"')[2];
    expect(substituted?.kind === 'word' ? substituted.substitutions : []).toEqual(['rm -rf /']);
  });

  it('skips comments and here-document bodies', () => {
    expect(words('cat <<EOF # a comment\nrm -rf /\nEOF\necho done')).toEqual(['cat', '<<<>', 'EOF', '<newline>', 'echo', 'done']);
  });
});

describe('resolveShellPath', () => {
  it('folds . and .., follows the working directory, and writes homes as ~', () => {
    const workspace = resolveShellPath('/srv/data/workspace', undefined);
    expect(formatShellPath(resolveShellPath('../../..', workspace) ?? workspace ?? { root: '/', segments: [] })).toBe('/');
    expect(formatShellPath(resolveShellPath('/root/.ssh/../.ssh/authorized_keys', undefined) ?? { root: '/', segments: [] })).toBe('~/.ssh/authorized_keys');
    expect(formatShellPath(resolveShellPath('/home/alice', undefined) ?? { root: '/', segments: [] })).toBe('~');
    expect(resolveShellPath('build', undefined)).toBeUndefined();
  });
});
