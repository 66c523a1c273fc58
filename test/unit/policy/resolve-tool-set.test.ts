import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../../tools/index.js';
import type { ToolSelection } from '../../../src/config/config-schema.js';
import { expandProfile, profiles } from '../../../src/policy/profiles.js';
import { resolveToolSet } from '../../../src/policy/resolve-tool-set.js';

const registered = builtinTools.map((tool) => tool.name);
const selection = (overrides: Partial<ToolSelection> = {}): ToolSelection => ({ allow: [], alsoAllow: [], deny: [], ...overrides });
const sorted = (names: Iterable<string>) => [...names].sort();

describe('profiles', () => {
  it('minimal is exactly message, ask_user and session_search', () => {
    expect(sorted(profiles.minimal)).toEqual(['ask_user', 'message', 'session_search']);
  });

  it('messaging is exactly the messaging catalogue', () => {
    expect(sorted(profiles.messaging)).toEqual(sorted(['message', 'ask_user', 'session_search', 'memory', 'todo', 'schedule_task', 'list_tasks', 'cancel_task', 'web_fetch']));
  });

  it('coding is messaging plus the four file tools and send_file', () => {
    expect(sorted(profiles.coding)).toEqual(sorted([...profiles.messaging, 'read_file', 'list_dir', 'write_file', 'edit_file', 'send_file', 'delegate']));
    expect(profiles.coding).not.toContain('exec');
  });

  it('full is every registered tool, exec included', () => {
    expect(expandProfile('full', registered)).toEqual(registered);
    expect(expandProfile('full', registered)).toContain('exec');
  });

  it('every profile name is a real built-in tool', () => {
    for (const name of profiles.coding) expect(registered).toContain(name);
  });
});

describe('resolveToolSet', () => {
  it('defaults to the messaging profile', () => {
    const resolved = resolveToolSet({ global: selection() }, registered);
    expect(sorted(resolved.names)).toEqual(sorted(profiles.messaging));
    expect(resolved.warnings).toEqual([]);
  });

  it.each(['minimal', 'messaging', 'coding'] as const)('resolves the %s profile to exactly its names', (profile) => {
    expect(sorted(resolveToolSet({ global: selection({ profile }) }, registered).names)).toEqual(sorted(profiles[profile]));
  });

  it('resolves full to every registered tool, exec included', () => {
    expect(sorted(resolveToolSet({ global: selection({ profile: 'full' }) }, registered).names)).toEqual(sorted(registered));
  });

  it('alsoAllow adds to the profile', () => {
    const names = resolveToolSet({ global: selection({ profile: 'minimal', alsoAllow: ['exec', 'read_file'] }) }, registered).names;
    expect(sorted(names)).toEqual(sorted([...profiles.minimal, 'exec', 'read_file']));
  });

  it('a non-empty allow replaces the profile entirely (alsoAllow does not widen it)', () => {
    const names = resolveToolSet({ global: selection({ profile: 'coding', allow: ['message', 'exec'], alsoAllow: ['todo'] }) }, registered).names;
    expect(sorted(names)).toEqual(['exec', 'message']);
  });

  it('deny wins over the profile', () => {
    const names = resolveToolSet({ global: selection({ deny: ['web_fetch'] }) }, registered).names;
    expect(names.has('web_fetch')).toBe(false);
    expect(names.size).toBe(profiles.messaging.length - 1);
  });

  it('deny wins over allow', () => {
    const names = resolveToolSet({ global: selection({ allow: ['message', 'exec'], deny: ['exec'] }) }, registered).names;
    expect(sorted(names)).toEqual(['message']);
  });

  it('deny wins over alsoAllow', () => {
    const names = resolveToolSet({ global: selection({ alsoAllow: ['exec'], deny: ['exec'] }) }, registered).names;
    expect(names.has('exec')).toBe(false);
  });

  it('deny wins over full', () => {
    const names = resolveToolSet({ global: selection({ profile: 'full', deny: ['exec', 'write_file'] }) }, registered).names;
    expect(sorted(names)).toEqual(sorted(registered.filter((name) => name !== 'exec' && name !== 'write_file')));
  });

  it('a channel profile overrides the global one', () => {
    const names = resolveToolSet({ global: selection({ profile: 'coding' }), channel: { profile: 'minimal' } }, registered).names;
    expect(sorted(names)).toEqual(sorted(profiles.minimal));
  });

  it('a channel allow overrides the global allow', () => {
    const names = resolveToolSet({ global: selection({ allow: ['message'] }), channel: { allow: ['todo'] } }, registered).names;
    expect(sorted(names)).toEqual(['todo']);
  });

  it('an empty channel allow keeps the global allow', () => {
    const names = resolveToolSet({ global: selection({ allow: ['message'] }), channel: { allow: [] } }, registered).names;
    expect(sorted(names)).toEqual(['message']);
  });

  it('channel alsoAllow and deny add to the global lists', () => {
    const names = resolveToolSet(
      { global: selection({ profile: 'minimal', alsoAllow: ['todo'], deny: ['message'] }), channel: { alsoAllow: ['exec'], deny: ['ask_user'] } },
      registered,
    ).names;
    expect(sorted(names)).toEqual(['exec', 'session_search', 'todo']);
  });

  it('a global deny still applies under a channel allow', () => {
    const names = resolveToolSet({ global: selection({ deny: ['exec'] }), channel: { allow: ['exec', 'message'] } }, registered).names;
    expect(sorted(names)).toEqual(['message']);
  });

  it('never lists a name that is not registered', () => {
    const names = resolveToolSet({ global: selection({ profile: 'coding' }) }, ['message', 'memory']).names;
    expect(sorted(names)).toEqual(['memory', 'message']);
  });

  it('warns about every unknown name in allow, alsoAllow and deny, listing the valid names', () => {
    const resolved = resolveToolSet({ global: selection({ allow: ['mesage'], alsoAllow: ['bash'], deny: ['nuke'] }) }, ['exec', 'message']);
    expect(resolved.warnings).toEqual([
      'Unknown tool "mesage" in the tools config. Valid names: exec, message.',
      'Unknown tool "bash" in the tools config. Valid names: exec, message.',
      'Unknown tool "nuke" in the tools config. Valid names: exec, message.',
    ]);
  });

  it('warns about unknown names in a channel override too', () => {
    const resolved = resolveToolSet({ global: selection(), channel: { deny: ['ghost'] } }, registered);
    expect(resolved.warnings).toHaveLength(1);
    expect(resolved.warnings[0]).toContain('Unknown tool "ghost"');
    for (const name of registered) expect(resolved.warnings[0]).toContain(name);
  });

  describe('tools from outside the catalogue (MCP servers)', () => {
    const withServers = [...registered, 'files__read_text_file', 'files__write_file', 'everything__echo'];
    const externalPrefixes = ['files__', 'everything__'];

    it('no profile includes them, not even full', () => {
      for (const profile of ['minimal', 'messaging', 'coding', 'full'] as const) {
        const names = resolveToolSet({ global: selection({ profile }), externalPrefixes }, withServers).names;
        expect([...names].filter((name) => name.includes('__'))).toEqual([]);
      }
    });

    it('alsoAllow with a server__* glob brings in that server only, and deny still wins', () => {
      const names = resolveToolSet({ global: selection({ alsoAllow: ['files__*'], deny: ['files__write_file'] }), externalPrefixes }, withServers).names;
      expect(names.has('files__read_text_file')).toBe(true);
      expect(names.has('files__write_file')).toBe(false);
      expect(names.has('everything__echo')).toBe(false);
      expect(names.has('memory')).toBe(true);
    });

    it('an allow list may name one tool exactly or a glob, and a channel deny glob removes them', () => {
      const layers = { global: selection({ allow: ['message', 'everything__echo', 'files__*'] }), externalPrefixes };
      expect(sorted(resolveToolSet(layers, withServers).names)).toEqual(['everything__echo', 'files__read_text_file', 'files__write_file', 'message']);
      expect(sorted(resolveToolSet({ ...layers, channel: { deny: ['files__*'] } }, withServers).names)).toEqual(['everything__echo', 'message']);
    });

    it('does not warn about a name of a server that has not listed its tools yet, but does about a glob nothing can match', () => {
      const resolved = resolveToolSet({ global: selection({ alsoAllow: ['files__read_text_file', 'nothing*'] }), externalPrefixes }, registered);
      expect(resolved.names.has('files__read_text_file')).toBe(false);
      expect(resolved.warnings).toHaveLength(1);
      expect(resolved.warnings[0]).toContain('Unknown tool "nothing*"');
    });
  });
});
