import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { LangVariant } from 'sh-syntax';

// The WebAssembly global, typed here: this project's TypeScript libs do not declare it.
type WebAssemblyApi = { compile(bytes: Uint8Array): Promise<object>; instantiate(module: object, imports: object): Promise<object> };
const webAssembly = (globalThis as unknown as { readonly WebAssembly: WebAssemblyApi }).WebAssembly;

// sh-syntax's own `parse` compiles its WebAssembly module on every call; compiling once saves most of the cost.
let compiled: Promise<object> | undefined;
const compileParser = (): Promise<object> => {
  compiled ??= readFile(createRequire(import.meta.url).resolve('sh-syntax/main.wasm')).then((bytes) => webAssembly.compile(bytes));
  return compiled;
};
const instantiate = async (imports: object) => webAssembly.instantiate(await compileParser(), imports);
// sh-syntax loads with the first command checked: an agent that never runs exec never loads it.
type Parser = { readonly parse: (command: string, options: { readonly variant: LangVariant; readonly keepComments: boolean }) => Promise<unknown>; readonly posix: LangVariant };
let parser: Promise<Parser> | undefined;
const loadParser = (): Promise<Parser> => {
  parser ??= import('sh-syntax').then(({ getProcessor, LangVariant: variants }) => ({
    parse: getProcessor(instantiate as unknown as Parameters<typeof getProcessor>[0]),
    posix: variants.LangPOSIX,
  }));
  return parser;
};

/**
 * Parses a command as POSIX shell (what /bin/sh runs) with mvdan/sh compiled to WebAssembly, and
 * says why it is not valid, or undefined when it is. A command the shell would reject is refused
 * before it runs, so the deny-list never reads a command differently from the shell.
 */
export async function describeShellSyntaxError(command: string): Promise<string | undefined> {
  // Outside the try: a parser that cannot load is a broken install, not a command with a syntax error.
  const { parse, posix } = await loadParser();
  try {
    await parse(command, { variant: posix, keepComments: false });
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `The command is not valid POSIX shell (${reason}); it was not run. Write it for /bin/sh, or run bash -c '...' explicitly.`;
  }
}
