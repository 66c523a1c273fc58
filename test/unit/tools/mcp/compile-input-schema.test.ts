import { describe, expect, it } from 'vitest';
import { formatValidationError } from '../../../../src/registry/format-validation-error.js';
import { compileInputSchema } from '../../../../tools/mcp/compile-input-schema.js';

function errorsFor(schema: Record<string, unknown>, value: unknown): string | undefined {
  const compiled = compileInputSchema(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  const parsed = compiled.input.safeParse(value);
  return parsed.success ? undefined : formatValidationError(parsed.error);
}

const readFile = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { path: { type: 'string' }, head: { type: 'number' }, mode: { enum: ['text', 'binary'] } },
  required: ['path'],
  additionalProperties: false,
};

describe('compileInputSchema', () => {
  it('accepts arguments the schema allows', () => {
    expect(errorsFor(readFile, { path: '/notes/a.txt', head: 3 })).toBeUndefined();
  });

  it('reports every problem with its path, in the registry wording', () => {
    expect(errorsFor(readFile, { head: 'two', mode: 'weird', extra: true })).toBe(
      'Invalid parameters: path: required; extra: not allowed; head: must be number; mode: expected one of text|binary',
    );
  });

  it('refuses arguments that are not an object', () => {
    expect(errorsFor(readFile, ['a'])).toMatch(/^Invalid parameters: /);
  });

  it('follows draft 2020-12 when the schema says so (prefixItems)', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } } };
    expect(errorsFor(schema, { pair: ['a', 1] })).toBeUndefined();
    expect(errorsFor(schema, { pair: ['a', 'b'] })).toContain('pair.1: must be number');
  });

  it('says why a schema cannot be used (a pattern that is not a regular expression, a $ref to nowhere)', () => {
    const badPattern = compileInputSchema({ type: 'object', properties: { name: { type: 'string', pattern: '([' } } });
    expect(badPattern.ok).toBe(false);
    expect(!badPattern.ok && badPattern.reason).toMatch(/^its input schema is not valid JSON Schema/);
    expect(compileInputSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }).ok).toBe(false);
  });
});
