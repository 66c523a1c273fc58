import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../fakes/run-compiled.js';

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(repositoryRoot, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) found.push(path);
  }
  return found;
}

const production = [...sourceFiles('src'), ...sourceFiles('channels'), ...sourceFiles('tools')];
const importsOf = (file: string) => [...readFileSync(join(repositoryRoot, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');

/** Each SDK and the only folders allowed to import it. */
const sdkHomes: Readonly<Record<string, readonly string[]>> = {
  telegraf: ['channels/telegram/'],
  wechaty: ['channels/wechat/'],
  koa: ['channels/webhook/'],
  '@koa/router': ['channels/webhook/'],
  '@koa/bodyparser': ['channels/webhook/'],
  'node-cron': ['channels/cron/'],
  openai: ['src/agent/providers/openai/'],
  '@anthropic-ai/sdk': ['src/agent/providers/anthropic/'],
};

describe('house rules (docs/naming.md), checked on every file', () => {
  it('src/ never imports channels/ or tools/, except the composition root in src/app/', () => {
    const offenders = production
      .filter((file) => file.startsWith('src/') && !file.startsWith('src/app/'))
      .filter((file) => importsOf(file).some((specifier) => /(^|\/)(channels|tools)\//.test(specifier) && specifier.startsWith('.')));
    expect(offenders).toEqual([]);
  });

  it('an SDK is imported only inside its own adapter folder', () => {
    const offenders: string[] = [];
    for (const file of production) {
      for (const specifier of importsOf(file)) {
        const sdk = Object.keys(sdkHomes).find((name) => specifier === name || specifier.startsWith(`${name}/`));
        if (sdk && !(sdkHomes[sdk] ?? []).some((home) => file.startsWith(home))) offenders.push(`${file} imports ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('nothing outside src/config/ reads process.env', () => {
    const code = (file: string) =>
      readFileSync(join(repositoryRoot, file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/\*\*|\*)/.test(line))
        .join('\n');
    const offenders = production.filter((file) => !file.startsWith('src/config/') && /process\.env\b/.test(code(file)));
    expect(offenders).toEqual([]);
  });

  it('index.ts files only re-export', () => {
    const offenders = production
      .filter((file) => file.endsWith('/index.ts'))
      .filter((file) =>
        readFileSync(join(repositoryRoot, file), 'utf8')
          .split('\n')
          .some((line) => line.trim() !== '' && !line.startsWith('export ') && !line.startsWith('//') && !line.startsWith(' *') && !line.startsWith('/**')),
      );
    expect(offenders.map((file) => relative(repositoryRoot, join(repositoryRoot, file)))).toEqual([]);
  });

  it('file names are kebab-case', () => {
    const offenders = production.filter((file) => !/^[a-z0-9]+(-[a-z0-9]+)*\.ts$/.test(file.split('/').at(-1) ?? ''));
    expect(offenders).toEqual([]);
  });
});
