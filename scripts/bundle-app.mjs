// Bundles the compiled app (dist/src/app/main.js, or <out>/src/app/main.js with an argument: the bench's dist-bench)
// into one entry with our own modules inside, over the same file: a start then opens a few files of ours instead of
// hundreds (start-up is mostly module loading; docs/performance.md). Packages stay outside (node_modules, as before).
// Features loaded only when configured stay loaded only when configured: each `await import` becomes a chunk beside
// main.js. The bundle lives in dist/src/app/, so a module that finds a file relative to its own URL must name a path
// that resolves the same from there (both are two folders below dist/). Which modules each chunk holds is written to
// bundle-meta.json beside it (what the start-up tests read to tell which of our modules a start loaded).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const out = resolve(root, process.argv[2] ?? 'dist');
const appFolder = join(out, 'src', 'app');
const entry = join(appFolder, 'main.js');
const banner = '// echo-agent: bundled by scripts/bundle-app.mjs';

// Already bundled (the script run twice without a build between): the chunks it imports are this bundle's own.
if (readFileSync(entry, 'utf8').slice(0, 200).includes(banner)) process.exit(0);

// A chunk of an earlier bundle must not stay behind (it would look loaded-from to nobody, but it takes space and confuses).
for (const name of readdirSync(appFolder)) if (/^chunk-[A-Z0-9]+\.js(\.map)?$/.test(name)) rmSync(join(appFolder, name));

const result = await build({
  absWorkingDir: root,
  entryPoints: [entry],
  banner: { js: banner },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  splitting: true,
  outdir: appFolder,
  allowOverwrite: true,
  metafile: true,
  logLevel: 'warning',
  // No minifying: function names and lines stay readable in stack traces.
  chunkNames: 'chunk-[hash]',
  // A map per output file, built through tsc's maps of the compiled modules, so `node --enable-source-maps` names
  // the TypeScript file and line (main.js.map is replaced: tsc's would describe the main.js the bundle overwrote).
  sourcemap: 'linked',
  sourcesContent: false,
});

/** Each output file of ours (relative to the out folder) and the compiled modules it holds (relative to it too). */
const chunks = Object.fromEntries(
  Object.entries(result.metafile.outputs)
    .filter(([output]) => output.endsWith('.js'))
    .map(([output, described]) => [
    relative(out, resolve(root, output)),
    Object.keys(described.inputs)
      .map((input) => relative(out, resolve(root, input)))
      .sort(),
  ]),
);
writeFileSync(join(appFolder, 'bundle-meta.json'), `${JSON.stringify({ chunks }, null, 1)}\n`);
