import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DoctorLine, doctorLine } from './doctor-line.js';

/** Creates the data folder when it is missing, then writes and removes a probe file in it. */
export async function checkDataFolder(dataDir: string): Promise<DoctorLine> {
  const existed = existsSync(dataDir);
  const probe = join(dataDir, `.doctor-probe-${process.pid}`);
  try {
    await mkdir(dataDir, { recursive: true });
    await writeFile(probe, 'echo-agent doctor\n');
    await rm(probe, { force: true });
  } catch (error) {
    return doctorLine('fail', 'data', `cannot write in ${dataDir}: ${describeFileError(error)}. Set ECHO_DATA_DIR to a folder you can write to.`);
  }
  return doctorLine('ok', 'data', `${dataDir} is writable${existed ? '' : ' (created it)'}`);
}

/** A file-system error in words, without the stack. Pure. */
export function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way (a folder is needed)';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
