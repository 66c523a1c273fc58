import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

type LockEntry = {
  readonly version?: string;
  readonly optional?: boolean;
  readonly link?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
};

type Lock = { readonly lockfileVersion?: number; readonly packages?: Readonly<Record<string, LockEntry>> };

/** Where `name` resolves from the lock's location `from` (a key of `packages`, "" for the root), walking up as Node does. */
function resolveInLock(packages: Readonly<Record<string, LockEntry>>, from: string, name: string): string | undefined {
  for (let folder = from; ; ) {
    const candidate = folder === '' ? `node_modules/${name}` : `${folder}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (folder === '') return undefined;
    const parent = folder.lastIndexOf('/node_modules/');
    folder = parent === -1 ? '' : folder.slice(0, parent);
  }
}

/** Where `name` resolves on disk from the package folder `from`, walking up as Node does (never above `root`). */
function resolveOnDisk(root: string, from: string, name: string): string | undefined {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (folder === root || dirname(folder) === folder) return undefined;
  }
}

function versionOnDisk(folder: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * The packages a lockfile (v2 or v3) installs that `root`'s node_modules would not load at the same
 * version: every dependency edge the lock records is resolved from the same package on disk, the way
 * Node resolves it, so a package hoisted differently but reachable at its version counts as present.
 * Empty means the tree of that lockfile can run on `root`'s node_modules. Optional packages the lock
 * names but this platform never installs (other CPUs, other systems) are skipped.
 */
export function findLockMismatches(lockFile: string, root: string): string[] {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as Lock;
  const packages = lock.packages;
  if (!packages || (lock.lockfileVersion ?? 1) < 2) return [`${lockFile} is not a lockfile v2 or v3`];
  const mismatches: string[] = [];
  const visited = new Set<string>();
  const queue: { readonly lockKey: string; readonly diskFolder: string }[] = [{ lockKey: '', diskFolder: realpathSync(root) }];
  while (queue.length > 0) {
    const { lockKey, diskFolder } = queue.shift() as { lockKey: string; diskFolder: string };
    const entry = packages[lockKey] ?? {};
    const names = new Set([
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}),
      ...(lockKey === '' ? Object.keys(entry.devDependencies ?? {}) : []),
    ]);
    for (const name of names) {
      const target = resolveInLock(packages, lockKey, name);
      const wanted = target === undefined ? undefined : packages[target];
      // A peer or optional dependency the lock did not install is not needed.
      if (target === undefined || wanted === undefined || wanted.link) continue;
      const found = resolveOnDisk(root, diskFolder, name);
      if (found === undefined) {
        if (!wanted.optional) mismatches.push(`${target}@${wanted.version} is missing`);
        continue;
      }
      const version = versionOnDisk(found);
      if (version !== wanted.version) {
        mismatches.push(`${target}@${wanted.version} is ${version ?? 'unreadable'} here`);
        continue;
      }
      if (visited.has(target)) continue;
      visited.add(target);
      queue.push({ lockKey: target, diskFolder: found });
    }
  }
  return mismatches;
}
