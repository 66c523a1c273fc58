// The started app is a bundle (scripts/bundle-app.mjs): with `node --enable-source-maps` a stack trace must still
// name the TypeScript file and line, so every bundled file carries a map that leads back through tsc's maps.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repositoryRoot } from '../../fakes/run-compiled.js';

const appFolder = join(repositoryRoot, 'dist', 'src', 'app');

beforeAll(() => {
  ensureBuilt();
}, 120_000);

/** The bundled files of ours: main.js and its chunks, as bundle-meta.json lists them. */
function bundledFiles(): string[] {
  const meta = JSON.parse(readFileSync(join(appFolder, 'bundle-meta.json'), 'utf8')) as { chunks: Record<string, string[]> };
  return Object.keys(meta.chunks).map((file) => join(repositoryRoot, 'dist', file));
}

describe('the bundle of the started app', () => {
  it('maps each function of main.js and of every chunk back to the TypeScript line that declares it', () => {
    const files = bundledFiles();
    expect(files.length).toBeGreaterThan(1);
    let checked = 0;
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      const linked = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code)?.[1];
      expect(linked, `${file} names its map`).toBeDefined();
      const mapFile = join(dirname(file), linked ?? '');
      expect(existsSync(mapFile), `${mapFile} exists`).toBe(true);
      const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
      const lines = code.split('\n');
      const declarations = lines.flatMap((text, line) => {
        const found = /^(?:export )?(?:async )?function\*? ([A-Za-z]\w*)\(/.exec(text);
        return found?.[1] === undefined ? [] : [{ name: found[1], line, column: text.indexOf(found[1]) }];
      });
      // A few chunks only re-export or hold constants: their map is checked to exist, their lines are not.
      for (const declaration of declarations.slice(0, 5)) {
        const entry = map.findEntry(declaration.line, declaration.column) as { originalSource?: string; originalLine?: number };
        expect(entry.originalSource, `${declaration.name} in ${file}`).toMatch(/\.ts$/);
        const source = resolve(dirname(mapFile), entry.originalSource ?? '');
        const sourceLine = readFileSync(source, 'utf8').split('\n')[entry.originalLine ?? -1] ?? '';
        expect(sourceLine, `${declaration.name} at ${source}:${(entry.originalLine ?? 0) + 1}`).toContain(declaration.name);
        checked += 1;
      }
    }
    // Most of the 100-odd files declare functions; each of those has up to five checked.
    expect(checked).toBeGreaterThan(files.length);
  });
});
