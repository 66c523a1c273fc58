import { LangVariant, parse } from 'sh-syntax';

/**
 * Parses a command as POSIX shell (what /bin/sh runs) with mvdan/sh compiled to WebAssembly, and
 * says why it is not valid, or undefined when it is. A command the shell would reject is refused
 * before it runs, so the deny-list never reads a command differently from the shell.
 */
export async function describeShellSyntaxError(command: string): Promise<string | undefined> {
  try {
    await parse(command, { variant: LangVariant.LangPOSIX, keepComments: false });
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `The command is not valid POSIX shell (${reason}); it was not run. Write it for /bin/sh, or run bash -c '...' explicitly.`;
  }
}
