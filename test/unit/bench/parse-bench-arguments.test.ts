import { describe, expect, it } from 'vitest';
import { benchmarkNames } from '../../bench/benchmark-names.js';
import { parseBenchArguments } from '../../bench/parse-bench-arguments.js';

describe('parseBenchArguments', () => {
  it('runs every benchmark when --only is not given', () => {
    expect(parseBenchArguments(['--json'])).toEqual({ ok: true, value: { json: true, quick: false, against: undefined, only: undefined } });
  });

  it('takes --only with one benchmark, beside --against and --json', () => {
    expect(parseBenchArguments(['--only', 'memory', '--against', 'b32798f', '--json'])).toEqual({ ok: true, value: { json: true, quick: false, against: 'b32798f', only: ['memory'] } });
  });

  it('takes a comma-separated list, as --only=a,b too, and repeated --only adds without duplicates', () => {
    expect(parseBenchArguments(['--only=registry,pipeline'])).toMatchObject({ ok: true, value: { only: ['registry', 'pipeline'] } });
    expect(parseBenchArguments(['--only', 'telegram', '--only', 'startup,telegram'])).toMatchObject({ ok: true, value: { only: ['telegram', 'startup'] } });
  });

  it('knows every benchmark of the plan by name', () => {
    for (const name of benchmarkNames) expect(parseBenchArguments(['--only', name])).toMatchObject({ ok: true, value: { only: [name] } });
  });

  it('refuses an unknown benchmark, naming it and the known ones', () => {
    const parsed = parseBenchArguments(['--only', 'memory,memroy']);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toContain('Unknown benchmark memroy');
    expect(parsed.error).toContain(benchmarkNames.join(', '));
  });

  it('refuses --only without a value, or followed by another option', () => {
    expect(parseBenchArguments(['--only'])).toMatchObject({ ok: false, error: expect.stringContaining('--only needs one or more benchmarks') });
    expect(parseBenchArguments(['--only', '--json'])).toMatchObject({ ok: false, error: expect.stringContaining('--only needs one or more benchmarks') });
    expect(parseBenchArguments(['--only='])).toMatchObject({ ok: false });
  });

  it('still takes --against=<ref> and refuses --against without a ref or an unknown option', () => {
    expect(parseBenchArguments(['--against=v1', '--quick'])).toMatchObject({ ok: true, value: { against: 'v1', quick: true } });
    expect(parseBenchArguments(['--against'])).toMatchObject({ ok: false, error: expect.stringContaining('--against needs a git ref') });
    expect(parseBenchArguments(['--fast'])).toMatchObject({ ok: false, error: expect.stringContaining('Unknown option --fast') });
  });
});
