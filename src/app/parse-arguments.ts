/** The command line: a command, its words, and `--config FILE`. */
export type ParsedArguments = { readonly command: string; readonly words: readonly string[]; readonly configFile?: string; readonly flags: ReadonlySet<string>; readonly values: ReadonlyMap<string, string> };

/** Parses `main.js <command> [words] [--config FILE] [--flag] [--name value]`. */
export function parseArguments(argv: readonly string[]): ParsedArguments {
  const words: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument.startsWith('--')) {
      const [name, inline] = argument.slice(2).split('=', 2) as [string, string | undefined];
      const next = argv[index + 1];
      if (inline !== undefined) values.set(name, inline);
      else if (['config', 'profile', 'channel', 'limit', 'day', 'month', 'export', 'delete', 'out', 'longmemeval', 'budget-chars'].includes(name) && next !== undefined) {
        values.set(name, next);
        index += 1;
      } else flags.add(name);
    } else words.push(argument);
  }
  const [command = 'start', ...rest] = words;
  return { command, words: rest, configFile: values.get('config'), flags, values };
}
