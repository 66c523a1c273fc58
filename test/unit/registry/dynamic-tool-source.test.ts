import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../src/registry/define-tool.js';
import type { DynamicToolSource, ToolServerStatus } from '../../../src/registry/dynamic-tool-source.js';
import { callOf, createRegistryHarness, type RegistryHarness, requestFor } from './registry-fixtures.js';

function toolNamed(name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    input: z.object({ text: z.string() }),
    risk: 'read_only',
    execute: async (input) => ({ ok: true, output: `${name} ran with ${(input as { text: string }).text}` }),
    ...overrides,
  }) as ToolDefinition;
}

/** A real source whose tools a test sets by hand, the way an MCP server's listing changes. */
function createSettableSource(): DynamicToolSource & { set(tools: readonly ToolDefinition[], down?: string): void } {
  let current: readonly ToolDefinition[] = [];
  let downReason: string | undefined;
  const known = new Set<string>();
  const listeners = new Set<() => void>();
  return {
    tools: () => current,
    unavailableReason: (name) => (known.has(name) && !current.some((tool) => tool.name === name) ? (downReason ?? 'gone') : undefined),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    servers: (): Record<string, ToolServerStatus> => ({ files: { state: downReason ? 'down' : 'up', tools: current.length } }),
    set(tools, down) {
      current = tools;
      downReason = down;
      for (const tool of tools) known.add(tool.name);
      for (const listener of listeners) listener();
    },
  };
}

describe('a registry with a dynamic tool source', () => {
  let harness: RegistryHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('offers the source tools beside the static ones, reflects changes in names(), find() and definitions(), and tells listeners', async () => {
    const source = createSettableSource();
    harness = await createRegistryHarness({ tools: [toolNamed('memory')], toolSource: source });
    const { registry } = harness;
    let changes = 0;
    registry.onChange(() => {
      changes += 1;
    });
    expect(registry.names()).toEqual(['memory']);

    source.set([toolNamed('files__read')]);
    expect(changes).toBe(1);
    expect(registry.names()).toEqual(['files__read', 'memory']);
    expect(registry.find('files__read')?.name).toBe('files__read');
    expect(registry.definitions(new Set(['files__read'])).map((schema) => schema.name)).toEqual(['files__read']);

    source.set([]);
    expect(registry.names()).toEqual(['memory']);
    expect(registry.find('files__read')).toBeUndefined();
  });

  it('runs a source tool through the same kernel (policy re-check, validation, audit naming the server)', async () => {
    const source = createSettableSource();
    harness = await createRegistryHarness({ tools: [], toolSource: source });
    source.set([toolNamed('files__read', { server: 'files' })]);
    const { registry } = harness;

    const hidden = await registry.execute(requestFor(callOf('files__read', { text: 'a' }), []));
    expect(hidden).toMatchObject({ kind: 'result', result: { ok: false, errorKind: 'denied' } });
    const invalid = await registry.execute(requestFor(callOf('files__read', { text: 3 }), ['files__read']));
    expect(invalid).toMatchObject({ kind: 'result', result: { ok: false, errorKind: 'validation' } });
    const ran = await registry.execute(requestFor(callOf('files__read', { text: 'a' }), ['files__read']));
    expect(ran).toMatchObject({ kind: 'result', result: { ok: true, output: 'files__read ran with a' } });

    await harness.audit.flush();
    const entries = await harness.audit.recent(10);
    expect(entries.map((entry) => [entry.tool, entry.server, entry.outcome])).toEqual([
      ['files__read', 'files', 'denied'],
      ['files__read', 'files', 'validation'],
      ['files__read', 'files', 'ok'],
    ]);
  });

  it('answers a call of a withdrawn tool with the reason the source gives, not "unknown tool"', async () => {
    const source = createSettableSource();
    harness = await createRegistryHarness({ tools: [], toolSource: source });
    source.set([toolNamed('files__read')]);
    source.set([], 'The tool "files__read" is unavailable: the MCP server "files" is down.');
    const outcome = await harness.registry.execute(requestFor(callOf('files__read', { text: 'a' }), ['files__read']));
    expect(outcome).toMatchObject({ kind: 'result', result: { ok: false, output: 'The tool "files__read" is unavailable: the MCP server "files" is down.' } });
    const unknown = await harness.registry.execute(requestFor(callOf('nothing_here', {}), ['nothing_here']));
    expect(unknown).toMatchObject({ kind: 'result', result: { ok: false, errorKind: 'denied', output: expect.stringContaining('Unknown tool') } });
  });

  it('refuses source tools whose name clashes with a static tool or an alias, or whose schema is not an object, and reports each', async () => {
    const source = createSettableSource();
    const rejected: string[] = [];
    harness = await createRegistryHarness({ tools: [toolNamed('memory')], toolSource: source, onToolRejected: (name, reason) => rejected.push(`${name}: ${reason}`) });
    source.set([
      toolNamed('memory'),
      toolNamed('bash'),
      toolNamed('bad name'),
      toolNamed('files__list', { parameters: { type: 'string' } }),
      toolNamed('files__ok', { parameters: { type: 'object', properties: { text: { type: 'string' } } } }),
    ]);
    expect(harness.registry.names()).toEqual(['files__ok', 'memory']);
    expect(harness.registry.definitions(new Set(['files__ok']))[0]?.parameters).toEqual({ type: 'object', properties: { text: { type: 'string' } } });
    expect(rejected).toEqual([
      'memory: its name is taken',
      'bash: its name is taken',
      'bad name: its name must match ^[A-Za-z0-9_-]{1,64}$',
      'files__list: its input schema must be an object',
    ]);
  });
});
