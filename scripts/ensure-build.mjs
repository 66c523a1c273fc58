// Builds the compiled JS when it is missing or older than the sources, so `npm ci && npm start`
// works on a fresh clone and `npm start` stays fast afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const marker = join(root, 'dist', 'src', 'app', 'main.js');

function newestSourceTime(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceTime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const sourceTime = Math.max(...['src', 'channels', 'tools'].filter((d) => existsSync(join(root, d))).map((d) => newestSourceTime(join(root, d))));
if (!existsSync(marker) || statSync(marker).mtimeMs < sourceTime) {
  process.stderr.write('Building echo-agent (first run or sources changed)...\n');
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    execFileSync(process.execPath, [join(root, 'scripts', 'compile-default-config.mjs')], { stdio: 'inherit' });
    execFileSync(process.execPath, [join(root, 'scripts', 'bundle-app.mjs')], { stdio: 'inherit' });
  } catch {
    process.stderr.write('The build failed; see the TypeScript errors above.\n');
    process.exit(1);
  }
}

// A build by tsc alone (an older checkout's, or by hand) has no compiled default config: make it (start-up reads YAML without it).
if (!existsSync(join(root, 'dist', 'config', 'default.json'))) {
  execFileSync(process.execPath, [join(root, 'scripts', 'compile-default-config.mjs')], { stdio: 'inherit' });
}
