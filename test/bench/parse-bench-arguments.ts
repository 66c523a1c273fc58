/** What `npm run bench -- ...` asked for. */
export type BenchArguments = { readonly json: boolean; readonly quick: boolean; readonly against: string | undefined };

/** The usage line printed with an argument error. */
export const benchUsage = 'Usage: npm run bench [-- --json] [-- --quick] [-- --against <git ref>]';

/** Parses `--json`, `--quick` and `--against <ref>` (or `--against=<ref>`); an error is one line. */
export function parseBenchArguments(argv: readonly string[]): { readonly ok: true; readonly value: BenchArguments } | { readonly ok: false; readonly error: string } {
  let json = false;
  let quick = false;
  let against: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    if (argument === '--json') json = true;
    else if (argument === '--quick') quick = true;
    else if (argument === '--against' || argument.startsWith('--against=')) {
      const separate = argument === '--against';
      const ref = separate ? argv[index + 1] : argument.slice('--against='.length);
      if (separate) index += 1;
      if (ref === undefined || ref === '' || ref.startsWith('-')) return { ok: false, error: `--against needs a git ref (a commit, tag or branch). ${benchUsage}` };
      against = ref;
    } else return { ok: false, error: `Unknown option ${argument}. ${benchUsage}` };
  }
  return { ok: true, value: { json, quick, against } };
}
