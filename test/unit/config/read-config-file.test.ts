import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfigFile } from '../../../src/config/read-config-file.js';
import { repositoryRoot } from '../../fakes/run-compiled.js';

const defaultFile = join(repositoryRoot, 'config', 'default.yaml');

describe('config files, and config/default.yaml compiled at build time', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  const scratch = (): string => {
    const folder = mkdtempSync(join(tmpdir(), 'echo-config-file-'));
    folders.push(folder);
    return folder;
  };

  it('compiles default.yaml into JSON that is its value exactly, keyed by the hash of its text', () => {
    const out = scratch();
    execFileSync(process.execPath, [join(repositoryRoot, 'scripts', 'compile-default-config.mjs'), out]);
    const compiled = JSON.parse(readFileSync(join(out, 'config', 'default.json'), 'utf8')) as { sha256: string; value: unknown };
    const text = readFileSync(defaultFile, 'utf8');
    expect(compiled.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(compiled.value).toEqual(parse(text));
  });

  it('parses an edited copy as YAML (the compiled value holds for the exact text only)', () => {
    const edited = join(scratch(), 'default.yaml');
    writeFileSync(edited, `${readFileSync(defaultFile, 'utf8')}\nextra:\n  edited: true\n`);
    const reading = readConfigFile(edited);
    expect(reading).toMatchObject({ ok: true, value: { extra: { edited: true }, agent: { maxIterations: 12 } } });
  });

  it('says in one sentence why a file is not YAML', () => {
    const broken = join(scratch(), 'broken.yaml');
    writeFileSync(broken, 'agent:\n  timezone: [unclosed\n');
    const reading = readConfigFile(broken);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.reason).not.toContain('\n');
  });
});
