import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/registry/tool-context.js';
import { memoryEntryLimit, memoryTool, memoryValueLimit } from '../../../tools/memory-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

function run(raw: unknown, context: ToolContext) {
  return memoryTool.execute(memoryTool.input.parse(raw), context);
}

function outputOf(outcome: Awaited<ReturnType<typeof run>>): string {
  expect(outcome).toMatchObject({ ok: true });
  return outcome.ok ? outcome.output : '';
}

describe('memory tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('remembers, recalls by key, searches and forgets', async () => {
    fake = await createFakeToolServices();
    const { context } = fake;
    expect((await run({ action: 'remember', key: 'editor', value: 'Uses Helix' }, context)).ok).toBe(true);
    expect((await run({ action: 'remember', key: 'timezone', value: 'Europe/Paris' }, context)).ok).toBe(true);

    expect(outputOf(await run({ action: 'recall', key: 'editor' }, context))).toContain('Uses Helix');
    const search = outputOf(await run({ action: 'recall', query: 'PARIS' }, context));
    expect(search).toContain('timezone: Europe/Paris');
    expect(search).not.toContain('Helix');
    const searchByKey = outputOf(await run({ action: 'recall', query: 'edit' }, context));
    expect(searchByKey).toContain('editor: Uses Helix');
    const all = outputOf(await run({ action: 'recall' }, context));
    expect(all).toContain('editor');
    expect(all).toContain('timezone');

    expect((await run({ action: 'forget', key: 'editor' }, context)).ok).toBe(true);
    expect(outputOf(await run({ action: 'recall' }, context))).not.toContain('editor');
  });

  it('stores under channel and user, so another person does not see it', async () => {
    fake = await createFakeToolServices();
    await run({ action: 'remember', key: 'pet', value: 'a cat called Miso' }, fake.context);
    const stored = await fake.services.state<Record<string, { value: string }>>('memory').get('telegram:42');
    expect(stored?.pet?.value).toBe('a cat called Miso');
    const other = fake.contextFor({ userId: '7' });
    expect(outputOf(await run({ action: 'recall', query: 'cat' }, other))).not.toContain('Miso');
  });

  it('overwrites a key instead of adding a second entry', async () => {
    fake = await createFakeToolServices();
    await run({ action: 'remember', key: 'city', value: 'Lyon' }, fake.context);
    await run({ action: 'remember', key: 'city', value: 'Nantes' }, fake.context);
    const stored = await fake.services.state<Record<string, { value: string }>>('memory').get('telegram:42');
    expect(Object.keys(stored ?? {})).toEqual(['city']);
    expect(stored?.city?.value).toBe('Nantes');
  });

  it('gives clear business errors for a missing key or value and an unknown key', async () => {
    fake = await createFakeToolServices();
    expect(await run({ action: 'remember', value: 'x' }, fake.context)).toEqual({ ok: false, kind: 'business', error: expect.stringContaining('key') });
    expect(await run({ action: 'remember', key: 'x' }, fake.context)).toEqual({ ok: false, kind: 'business', error: expect.stringContaining('value') });
    expect(await run({ action: 'forget' }, fake.context)).toEqual({ ok: false, kind: 'business', error: expect.stringContaining('key') });
    expect(await run({ action: 'forget', key: 'never-stored' }, fake.context)).toEqual({
      ok: false,
      kind: 'business',
      error: expect.stringContaining('never-stored'),
    });
  });

  it('keeps "__proto__" as an ordinary key', async () => {
    fake = await createFakeToolServices();
    await run({ action: 'remember', key: '__proto__', value: 'odd key' }, fake.context);
    expect(outputOf(await run({ action: 'recall', key: '__proto__' }, fake.context))).toContain('odd key');
  });

  it('bounds entries per person and the length of a value', async () => {
    fake = await createFakeToolServices();
    const full: Record<string, { value: string; updatedAt: string }> = {};
    for (let index = 0; index < memoryEntryLimit; index += 1) full[`key-${index}`] = { value: 'v', updatedAt: '2024-01-01T00:00:00.000Z' };
    await fake.services.state('memory').set('telegram:42', full);
    expect(await run({ action: 'remember', key: 'one-more', value: 'v' }, fake.context)).toEqual({
      ok: false,
      kind: 'business',
      error: expect.stringContaining('full'),
    });
    expect((await run({ action: 'remember', key: 'key-3', value: 'updated' }, fake.context)).ok).toBe(true);
    expect(memoryTool.input.safeParse({ action: 'remember', key: 'k', value: 'x'.repeat(memoryValueLimit + 1) }).success).toBe(false);
  });
});
