import { type BenchmarkName, benchmarkNames, isBenchmarkName } from './benchmark-names.js';

/** What `npm run bench -- ...` asked for. */
export type BenchArguments = {
  readonly json: boolean;
  readonly quick: boolean;
  readonly against: string | undefined;
  /** The benchmarks of `--only`, in the order given; undefined runs them all. */
  readonly only: readonly BenchmarkName[] | undefined;
};

/** The usage line printed with an argument error. */
export const benchUsage = `Usage: npm run bench [-- --json] [-- --quick] [-- --against <git ref>] [-- --only <benchmark>[,<benchmark>]] (benchmarks: ${benchmarkNames.join(', ')})`;

type Parsed = { readonly ok: true; readonly value: BenchArguments } | { readonly ok: false; readonly error: string };

/** Parses `--json`, `--quick`, `--against <ref>` and `--only <names>` (each also as `--option=value`); an error is one line. */
export function parseBenchArguments(argv: readonly string[]): Parsed {
  let json = false;
  let quick = false;
  let against: string | undefined;
  let only: BenchmarkName[] | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const option = argument.split('=', 1)[0] as string;
    if (argument === '--json') json = true;
    else if (argument === '--quick') quick = true;
    else if (option === '--against' || option === '--only') {
      const separate = argument === option;
      const value = separate ? argv[index + 1] : argument.slice(option.length + 1);
      if (separate) index += 1;
      if (option === '--against') {
        if (value === undefined || value === '' || value.startsWith('-')) return { ok: false, error: `--against needs a git ref (a commit, tag or branch). ${benchUsage}` };
        against = value;
      } else {
        if (value === undefined || value === '' || value.startsWith('-')) return { ok: false, error: `--only needs one or more benchmarks, separated by commas. ${benchUsage}` };
        const names = value.split(',').map((name) => name.trim());
        const unknown = names.filter((name) => !isBenchmarkName(name));
        if (unknown.length > 0) return { ok: false, error: `Unknown benchmark ${unknown.join(', ')} in --only. ${benchUsage}` };
        only = [...new Set([...(only ?? []), ...(names as BenchmarkName[])])];
      }
    } else return { ok: false, error: `Unknown option ${argument}. ${benchUsage}` };
  }
  return { ok: true, value: { json, quick, against, only } };
}
