import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { createLinearRegExp } from './create-linear-reg-exp.js';

// The patterns RE2 cannot run, gathered while one schema compiles. ajv compiles synchronously and calls the engine
// only then, so no other compile can interleave.
let uncheckedDuringCompile: Set<string> | undefined;
const regExp = createLinearRegExp({ onUnsupported: (pattern) => uncheckedDuringCompile?.add(pattern) });

// One engine per dialect, shared by every server: compiling is where the cost is, validating is cheap. `format` is
// not checked at all (validateFormats: false), so no format's regular expression ever runs; `pattern` and
// `patternProperties` run on RE2, in linear time (create-linear-reg-exp.ts).
const draft07 = new Ajv({ strict: false, allErrors: true, validateFormats: false, code: { regExp } });
const draft2020 = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, code: { regExp } });

/**
 * A server's input schema turned into the zod schema the registry validates with, or why it cannot be used.
 * `unchecked` lists the patterns left out of validation because the linear-time engine cannot run them.
 */
export type CompiledInputSchema =
  | { readonly ok: true; readonly input: z.ZodType; readonly unchecked: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Compiles a tool's JSON Schema with ajv (draft 2020-12 when it says so, draft-07 otherwise). A schema ajv refuses
 * (a bad `$ref`, an invalid pattern) is reported, and the tool is skipped. Patterns are matched by RE2 in linear time;
 * one RE2 cannot run (a backreference, a lookahead) is left out and listed in `unchecked`. The result is a zod schema whose
 * issues carry ajv's paths and messages, so a bad call reads like any other validation error.
 */
export function compileInputSchema(schema: Readonly<Record<string, unknown>>): CompiledInputSchema {
  const { $schema: dialect, ...rest } = schema;
  let validate: ValidateFunction;
  const unchecked = new Set<string>();
  uncheckedDuringCompile = unchecked;
  try {
    validate = (typeof dialect === 'string' && dialect.includes('2020-12') ? draft2020 : draft07).compile(rest);
  } catch (error) {
    return { ok: false, reason: `its input schema is not valid JSON Schema (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    uncheckedDuringCompile = undefined;
  }
  const input = z.record(z.string(), z.unknown()).superRefine((value, context) => {
    if (validate(value)) return;
    for (const issue of validate.errors ?? []) context.addIssue({ code: 'custom', path: pathOf(issue), message: messageOf(issue) });
  });
  return { ok: true, input, unchecked: [...unchecked] };
}

function pathOf(issue: ErrorObject): string[] {
  const path = issue.instancePath.split('/').slice(1).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') path.push(issue.params.missingProperty);
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') path.push(issue.params.additionalProperty);
  return path;
}

function messageOf(issue: ErrorObject): string {
  if (issue.keyword === 'required') return 'required';
  if (issue.keyword === 'additionalProperties') return 'not allowed';
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) return `expected one of ${issue.params.allowedValues.map(String).join('|')}`;
  return issue.message ?? issue.keyword;
}
