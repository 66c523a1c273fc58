import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAuditLog } from '../../../src/registry/audit-log.js';
import { defineTool, type ToolDefinition } from '../../../src/registry/define-tool.js';
import { createReplayGuard } from '../../../src/registry/replay-guard.js';
import { toToolSchema } from '../../../src/registry/tool-json-schema.js';
import { createToolRegistry, defaultAliases } from '../../../src/registry/tool-registry.js';
import { callOf, createRegistryHarness, createTemporaryFolder, type RegistryHarness, requestFor } from './registry-fixtures.js';

function toolNamed(name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    input: z.object({ text: z.string().optional() }),
    risk: 'read_only',
    execute: async () => ({ ok: true, output: `${name} ran` }),
    ...overrides,
  }) as ToolDefinition;
}

const folder = createTemporaryFolder('registry-build');
afterAll(() => folder.remove());

function build(tools: readonly ToolDefinition[], aliases?: Readonly<Record<string, string>>) {
  return createToolRegistry({ tools, aliases, audit: createAuditLog({ directory: folder.path }), replayGuard: createReplayGuard({}), network: 'public-only' });
}

describe('createToolRegistry: registration', () => {
  it.each(['has space', 'dot.name', 'slash/name', '', 'x'.repeat(65), 'ünïcode', 'semi;colon'])('refuses the name %j', (name) => {
    const result = build([toolNamed(name)]);
    expect(result).toEqual({ ok: false, error: `Tool name "${name}" must match ^[A-Za-z0-9_-]{1,64}$.` });
  });

  it('accepts names of letters, digits, _ and - up to 64 characters', () => {
    const result = build([toolNamed('a'), toolNamed('Tool_name-2'), toolNamed('y'.repeat(64))]);
    expect(result.ok).toBe(true);
    expect(result.ok && result.registry.names()).toEqual(['Tool_name-2', 'a', 'y'.repeat(64)]);
  });

  it('refuses a duplicate name', () => {
    expect(build([toolNamed('memory'), toolNamed('memory')])).toEqual({ ok: false, error: 'Tool "memory" is registered twice.' });
  });

  it.each(['bash', 'shell'])('refuses to register the alias name %s', (name) => {
    expect(build([toolNamed('exec'), toolNamed(name)])).toEqual({ ok: false, error: `Tool name "${name}" is taken by an alias.` });
  });

  it('refuses a schema that cannot be exported to JSON Schema (a date)', () => {
    const result = build([toolNamed('when', { input: z.object({ at: z.date() }) })]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^Tool "when" cannot be registered: its input schema cannot be exported to JSON Schema \(.+\)\.$/);
  });

  it('refuses an input schema that is not an object', () => {
    expect(build([toolNamed('plain', { input: z.string() })])).toEqual({
      ok: false,
      error: 'Tool "plain" cannot be registered: its input schema must be an object.',
    });
  });

  it('writes items for every array of the exported schema, at every depth', () => {
    const tool = toolNamed('nested', { input: z.object({ rows: z.array(z.object({ cells: z.array(z.array(z.number())) })) }) });
    const exported = toToolSchema(tool);
    expect(exported.ok).toBe(true);
    expect(exported.ok && exported.schema.parameters).toMatchObject({
      properties: { rows: { type: 'array', items: { properties: { cells: { type: 'array', items: { type: 'array', items: { type: 'number' } } } } } } },
    });
  });

  it('exports tuples (prefixItems) and arrays of anything', () => {
    const tool = toolNamed('shapes', { input: z.object({ pair: z.tuple([z.string(), z.number()]), anything: z.array(z.unknown()) }) });
    expect(toToolSchema(tool).ok).toBe(true);
  });
});

describe('createToolRegistry: lookup and definitions', () => {
  let harness: RegistryHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('resolves the default aliases bash and shell to exec', () => {
    expect(defaultAliases).toEqual({ bash: 'exec', shell: 'exec' });
    const result = build([toolNamed('exec'), toolNamed('memory')]);
    if (!result.ok) throw new Error(result.error);
    expect(result.registry.find('bash')?.name).toBe('exec');
    expect(result.registry.find('shell')?.name).toBe('exec');
    expect(result.registry.find('exec')?.name).toBe('exec');
    expect(result.registry.find('memory')?.name).toBe('memory');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('does not find the inherited name %s', (name) => {
    const result = build([toolNamed('exec')]);
    if (!result.ok) throw new Error(result.error);
    expect(result.registry.find(name)).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString'])('answers a model call to %s as an unknown tool, and nothing runs', async (name) => {
    const ran: string[] = [];
    const execute = async () => {
      ran.push('exec');
      return { ok: true as const, output: 'x' };
    };
    harness = await createRegistryHarness({ tools: [toolNamed('exec', { execute })] });
    const outcome = await harness.registry.execute(requestFor(callOf(name, {}), ['exec', name]));
    expect(outcome).toEqual({
      kind: 'result',
      toolName: name,
      result: { ok: false, output: `Unknown tool "${name}". Use only the tools you were given.`, error: `Unknown tool "${name}". Use only the tools you were given.`, errorKind: 'denied', metadata: {} },
    });
    expect(ran).toEqual([]);
  });

  it('runs a call made by alias as the real tool', async () => {
    harness = await createRegistryHarness({ tools: [toolNamed('exec')] });
    const outcome = await harness.registry.execute(requestFor(callOf('bash', {}), ['exec']));
    expect(outcome).toMatchObject({ kind: 'result', toolName: 'exec', result: { ok: true, output: 'exec ran' } });
  });

  it('gives definitions only for the visible tools, with object schemas and no $schema key', () => {
    const result = build([
      toolNamed('memory', { input: z.object({ action: z.enum(['remember', 'recall']).describe('What to do.') }) }),
      toolNamed('exec'),
      toolNamed('todo'),
    ]);
    if (!result.ok) throw new Error(result.error);
    const definitions = result.registry.definitions(new Set(['memory', 'todo', 'not-registered']));
    expect(definitions.map((definition) => definition.name)).toEqual(['memory', 'todo']);
    for (const definition of definitions) {
      expect(definition.parameters.type).toBe('object');
      expect(Object.hasOwn(definition.parameters, '$schema')).toBe(false);
      expect(definition.description).toBe(`The ${definition.name} tool.`);
    }
    expect(definitions[0]?.parameters).toMatchObject({
      properties: { action: { type: 'string', enum: ['remember', 'recall'], description: 'What to do.' } },
      required: ['action'],
    });
    expect(result.registry.definitions(new Set())).toEqual([]);
  });
});
