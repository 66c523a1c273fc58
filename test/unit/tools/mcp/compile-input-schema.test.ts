import { describe, expect, it } from 'vitest';
import { formatValidationError } from '../../../../src/registry/format-validation-error.js';
import { compileInputSchema } from '../../../../tools/mcp/compile-input-schema.js';
import { toMcpTool } from '../../../../tools/mcp/to-mcp-tool.js';

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

  describe('patterns run in linear time (a server schema cannot stall the event loop)', () => {
    const catastrophic = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } };
    const validationMs = (compiled: ReturnType<typeof compileInputSchema>, value: unknown) => {
      if (!compiled.ok) throw new Error(compiled.reason);
      const started = performance.now();
      const parsed = compiled.input.safeParse(value);
      return { ms: performance.now() - started, success: parsed.success };
    };

    it('refuses `^(a+)+$` against 29 a and a "!" in under 50 ms', () => {
      const compiled = compileInputSchema(catastrophic);
      // A backtracking engine doubles its time with each "a": 24 take a second or more there, 29 more than 15 s.
      // Measured first, so the test fails in about a second instead of freezing the runner when patterns backtrack.
      const shorter = validationMs(compiled, { name: `${'a'.repeat(24)}!` });
      expect(shorter.success).toBe(false);
      expect(shorter.ms).toBeLessThan(50);
      const attack = validationMs(compiled, { name: `${'a'.repeat(29)}!` });
      expect(attack.success).toBe(false);
      expect(attack.ms).toBeLessThan(50);
      expect(validationMs(compiled, { name: 'a'.repeat(100_000) }).success).toBe(true);
    });

    it('still checks patterns: a matching value passes, another is refused with the pattern named', () => {
      const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' }, slug: { type: 'string', pattern: 'é' } } };
      expect(errorsFor(schema, { code: 'ABC-12', slug: 'café' })).toBeUndefined();
      expect(errorsFor(schema, { code: 'abc-12', slug: 'cafe' })).toBe('Invalid parameters: code: must match pattern "^[A-Z]{3}-\\d{2}$"; slug: must match pattern "é"');
      // Two patterns in one schema never share a compiled expression (ajv keys them by their text).
      expect(errorsFor(schema, { code: 'XYZ-99', slug: 'été' })).toBeUndefined();
    });

    it('checks patternProperties: a key matching a pattern is validated by its schema, others by additionalProperties', () => {
      const schema = { type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'number' } }, additionalProperties: false };
      expect(errorsFor(schema, { 'x-size': 3 })).toBeUndefined();
      expect(errorsFor(schema, { 'x-size': 'big' })).toBe('Invalid parameters: x-size: must be number');
      expect(errorsFor(schema, { 'y-size': 3 })).toBe('Invalid parameters: y-size: not allowed');
      const keys = compileInputSchema({ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } });
      for (const length of [24, 29]) {
        const keyAttack = validationMs(keys, { [`${'a'.repeat(length)}!`]: 'x' });
        expect(keyAttack.success).toBe(true);
        expect(keyAttack.ms).toBeLessThan(50);
      }
    });

    it('leaves out a pattern RE2 cannot run (a backreference, a lookahead), says so on the tool, and never runs it', () => {
      const schema = { type: 'object', properties: { twice: { type: 'string', pattern: '^(a+)+\\1$' }, ahead: { type: 'string', pattern: '^(?=a)(a+)+$' }, plain: { type: 'string', pattern: '^b+$' } } };
      const compiled = compileInputSchema(schema);
      expect(compiled.ok && compiled.unchecked).toEqual(['^(a+)+\\1$', '^(?=a)(a+)+$']);
      const attack = validationMs(compiled, { twice: `${'a'.repeat(29)}!`, ahead: `${'a'.repeat(29)}!`, plain: 'bb' });
      expect(attack.success).toBe(true);
      expect(attack.ms).toBeLessThan(50);
      expect(errorsFor(schema, { plain: 'c' })).toBe('Invalid parameters: plain: must match pattern "^b+$"');
      const made = toMcpTool({
        server: 'files',
        registryName: 'files__find',
        remote: { name: 'find', description: 'Finds files.', inputSchema: schema },
        risk: 'read_only',
        timeoutMs: 1000,
        call: async () => ({ ok: true, content: '' }) as never,
      });
      expect(made.ok && made.tool.description).toBe(
        'Finds files. (from the MCP server "files") (not checked before the call, as they need a backtracking engine: pattern "^(a+)+\\\\1$", pattern "^(?=a)(a+)+$")',
      );
    });

    it('supports captureless lookbehinds in linear time', () => {
      const schema = { type: 'object', properties: { price: { type: 'string', pattern: '(?<=\\$)\\d+' } } };
      const compiled = compileInputSchema(schema);
      expect(compiled.ok && compiled.unchecked).toEqual([]);
      expect(errorsFor(schema, { price: '$12' })).toBeUndefined();
      expect(errorsFor(schema, { price: '12' })).toBe('Invalid parameters: price: must match pattern "(?<=\\$)\\d+"');
    });
  });
});
