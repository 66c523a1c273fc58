import { isAbsolute, relative } from 'node:path';
import type { LoadConfigResult } from '../config/load-config.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

/** The config lines: which files were read, and on failure one line per bad key. Pure. */
export function describeConfig(loaded: LoadConfigResult, options: { readonly root: string; readonly dotenvFound: boolean }): DoctorLine[] {
  const files = loaded.files.map((file) => shortPath(file, options.root));
  if (options.dotenvFound) files.push('.env');
  if (loaded.ok) return [doctorLine('ok', 'config', `valid (read ${files.join(', ')})`)];
  return [doctorLine('fail', 'config', `not valid (read ${files.join(', ')}):`), ...loaded.errors.map((error) => doctorLine('fail', 'config', error))];
}

/** A path inside the project as `config/local.yaml`; anything else in full. */
export function shortPath(file: string, root: string): string {
  const inside = relative(root, file);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : file;
}
