import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ParsedArguments } from './parse-arguments.js';
import { channelConfigSections } from './builtin-channels.js';
import { renderConfigReference } from './render-config-reference.js';

/** `npm run docs:config` writes docs/configuration.md; with `--check` it fails when the file is out of date. */
export async function runConfigDocs(parsed: ParsedArguments): Promise<number> {
  const root = process.cwd();
  const target = resolve(root, 'docs', 'configuration.md');
  const expected = renderConfigReference(parseYaml(readFileSync(resolve(root, 'config', 'default.yaml'), 'utf8')), channelConfigSections());
  if (parsed.flags.has('check')) {
    const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (current === expected) {
      process.stdout.write('docs/configuration.md matches the config schema.\n');
      return 0;
    }
    process.stderr.write('docs/configuration.md is out of date with src/config/config-schema.ts: run npm run docs:config and commit it.\n');
    return 1;
  }
  writeFileSync(target, expected);
  process.stdout.write(`Wrote ${target}.\n`);
  return 0;
}
