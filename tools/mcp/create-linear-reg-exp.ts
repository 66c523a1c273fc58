import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/**
 * ajv's `code.regExp` engine backed by RE2 (re2js): every `pattern` and `patternProperties` key of a server's schema
 * is matched in time linear in the input, so no argument can stall the event loop (`^(a+)+$` against `aaaa…!`
 * takes a fraction of a millisecond instead of doubling with each character).
 *
 * A pattern RE2 cannot run (a backreference, a lookahead, a lookbehind with a capture) that is still a valid
 * JavaScript expression is handed to `onUnsupported` and checks nothing: it is parsed by `new RegExp` only to tell it
 * from a pattern that is no regular expression at all (which throws, so ajv refuses the schema), and never run.
 */
export function createLinearRegExp(options: { readonly onUnsupported: (pattern: string) => void }): RegExpEngine {
  // ajv keeps one compiled pattern per `toString()` for the whole engine, so each must name its source and kind.
  const engine = (pattern: string, flags: string): RegExpLike & { toString(): string } => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), re2FlagsOf(flags));
    } catch {
      // Throws for a pattern that is not a regular expression in JavaScript either: ajv reports the schema invalid.
      new RegExp(pattern, flags);
      options.onUnsupported(pattern);
      return { test: () => true, toString: () => `unchecked:/${pattern}/${flags}` };
    }
    return { test: (value: string) => compiled.test(value), toString: () => `re2:/${pattern}/${flags}` };
  };
  // Any name but "new RegExp" makes ajv call this function rather than emit the native constructor.
  return Object.assign(engine, { code: 'linearRegExp' });
}

function re2FlagsOf(flags: string): number {
  // `u` needs nothing: RE2 always reads code points. Captureless lookbehinds run in linear time with this flag.
  let re2Flags = RE2JS.LOOKBEHINDS;
  if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
  if (flags.includes('s')) re2Flags |= RE2JS.DOTALL;
  return re2Flags;
}
