import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchTree } from './bench-tree.js';
import { findLockMismatches } from './find-lock-mismatches.js';

/** The ref of `--against`, checked out and built in a temporary git worktree. */
export type RefTree = {
  readonly tree: BenchTree;
  /** The commit the ref named. */
  readonly commit: string;
  /** How its node_modules and its harness were made, for the report's notes. */
  readonly notes: readonly string[];
  /** Removes the worktree and its temporary folder. */
  remove(): Promise<void>;
};

/** A ref that could not be prepared: one line saying why. */
export type RefTreeResult = { readonly ok: true; readonly value: RefTree } | { readonly ok: false; readonly error: string };

/** The entry points of this harness that the ref's modules run under (the in-process benchmarks, the memory child). */
const harnessEntries = ['test/bench/in-process-bench-child.ts', 'test/bench/sessions-memory-child.ts'];
/** The folders of this harness copied over the ref's own (its bench may differ; ours measures both). */
const harnessFolders = ['test/bench', 'test/fakes'];

type Ran = { readonly code: number | null; readonly output: string };

function run(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-200_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ code: null, output: error.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const lastLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .at(-1)
    ?.trim() ?? '';

/**
 * Checks `ref` out into a temporary worktree (under the system's temporary folder), gives it node_modules
 * (a symlink to this tree's when every package its package-lock.json installs resolves here at the same
 * version, else `npm ci`), builds it with its own `npm run build`, and builds this tree's bench harness
 * over its sources (tsconfig emitting despite type errors: the harness checks at run time what it needs).
 */
export async function prepareRefTree(options: { readonly ref: string; readonly repositoryRoot: string; readonly log: (line: string) => void }): Promise<RefTreeResult> {
  const { ref, repositoryRoot, log } = options;
  const resolved = await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], repositoryRoot);
  const commit = resolved.output.trim();
  if (resolved.code !== 0 || !/^[0-9a-f]{40}$/.test(commit)) return { ok: false, error: `--against ${ref}: no such git ref in ${repositoryRoot}` };
  const folder = mkdtempSync(join(tmpdir(), 'echo-bench-against-'));
  const root = join(folder, 'tree');
  const remove = async () => {
    // The node_modules symlink goes first, so that nothing below can reach this tree's own.
    const modules = join(root, 'node_modules');
    try {
      if (lstatSync(modules).isSymbolicLink()) unlinkSync(modules);
    } catch {
      // Never made.
    }
    await run('git', ['worktree', 'remove', '--force', root], repositoryRoot);
    rmSync(folder, { recursive: true, force: true });
    await run('git', ['worktree', 'prune'], repositoryRoot);
  };
  const fail = async (error: string): Promise<RefTreeResult> => {
    await remove();
    return { ok: false, error };
  };
  log(`• --against ${ref}: checking out ${commit.slice(0, 12)} into ${root}...`);
  const added = await run('git', ['worktree', 'add', '--detach', '--quiet', root, commit], repositoryRoot);
  if (added.code !== 0) return await fail(`--against ${ref}: git worktree add failed: ${lastLine(added.output)}`);

  const notes: string[] = [];
  const lockFile = join(root, 'package-lock.json');
  const mismatches = existsSync(lockFile) ? findLockMismatches(lockFile, repositoryRoot) : ['it has no package-lock.json'];
  if (mismatches.length === 0) {
    symlinkSync(join(repositoryRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
    notes.push(`against ${ref}: node_modules is this tree's (every package its package-lock.json installs resolves here at the same version).`);
  } else {
    log(`  its lockfile differs from this tree's node_modules (${mismatches.slice(0, 3).join('; ')}${mismatches.length > 3 ? `; ${mismatches.length - 3} more` : ''}): npm ci in the worktree...`);
    const installed = await run('npm', existsSync(lockFile) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'], root);
    if (installed.code !== 0) return await fail(`--against ${ref}: npm ci failed: ${lastLine(installed.output)}`);
    notes.push(`against ${ref}: node_modules installed with npm ci in the worktree, because ${mismatches.length} of its locked packages differ here (${mismatches.slice(0, 3).join('; ')}).`);
  }

  log(`  npm run build (${ref}'s own build)...`);
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  if (!scripts.build) return await fail(`--against ${ref}: its package.json has no build script`);
  const built = await run('npm', ['run', 'build'], root);
  if (built.code !== 0) return await fail(`--against ${ref} does not build: ${lastLine(built.output)}`);
  const mainScript = join(root, 'dist', 'src', 'app', 'main.js');
  if (!existsSync(mainScript)) return await fail(`--against ${ref}: its build made no dist/src/app/main.js`);

  log("  this tree's bench harness over its sources...");
  for (const harnessFolder of harnessFolders) cpSync(join(repositoryRoot, harnessFolder), join(root, harnessFolder), { recursive: true, force: true });
  const config = { extends: './tsconfig.json', compilerOptions: { noEmit: false, noEmitOnError: false, sourceMap: false, rootDir: '.', outDir: 'dist-bench' }, files: harnessEntries, include: [] };
  writeFileSync(join(root, 'tsconfig.bench-against.json'), JSON.stringify(config, null, 2));
  const harness = await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.bench-against.json'], root);
  const harnessRoot = join(root, 'dist-bench', 'test', 'bench');
  const harnessBuilt = harnessEntries.every((entry) => existsSync(join(root, 'dist-bench', entry.replace(/\.ts$/, '.js'))));
  const typeErrors = harness.output.split('\n').filter((line) => /error TS\d+/.test(line));
  if (!harnessBuilt) notes.push(`against ${ref}: this tree's bench harness did not build over its sources (${lastLine(harness.output)}); its in-process figures (registry, pipeline, exec, memory.rss10kSessionsMb) are not comparable.`);
  else if (typeErrors.length > 0)
    notes.push(
      `against ${ref}: this tree's bench harness built over its sources with ${typeErrors.length} type error(s), its API having changed since (the harness adapts at run time where it knows how, and a benchmark that fails on it is reported as not comparable): ${typeErrors.slice(0, 4).join(' | ')}${typeErrors.length > 4 ? ' | ...' : ''}`,
    );

  const schema = join(root, 'src', 'config', 'config-schema.ts');
  const hasClusterMode = existsSync(schema) && /^\s+cluster: z/m.test(readFileSync(schema, 'utf8'));
  return {
    ok: true,
    value: {
      tree: { label: ref, isThisTree: false, repositoryRoot: root, mainScript, harnessRoot: harnessBuilt ? harnessRoot : undefined, hasClusterMode },
      commit,
      notes,
      remove,
    },
  };
}
