/**
 * Why a file with more than one hard link is not read or written, or undefined for a file with one.
 * A hard link has no "real path" to check: the same file may also live outside the workspace, so
 * file tools refuse it. Pure.
 */
export function describeHardLink(requestedPath: string, links: number): string | undefined {
  if (links <= 1) return undefined;
  return `${requestedPath} has ${links} hard links, so it may be a file outside the workspace; file tools do not read or write it. Copy the file instead of linking it.`;
}
