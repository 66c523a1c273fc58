import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../../tools/index.js';
import { builtinChannels } from '../../../src/app/builtin-channels.js';
import { toolScopes } from '../../../src/app/doctor/tool-scopes.js';
import type { Config } from '../../../src/config/config-schema.js';
import { describeToolSets, selectionLabel } from '../../../src/doctor/describe-tool-sets.js';
import { configWith } from '../../fakes/config-with.js';

const registered = builtinTools.map((tool) => tool.name);
/** The tool sets of the scopes the built-in adapters report for this config. */
const describe_ = (config: Config) => describeToolSets(config, registered, toolScopes(config, builtinChannels));
const messaging = 'ask_user, cancel_task, list_tasks, memory, message, schedule_task, session_search, todo, web_fetch';

describe('describeToolSets', () => {
  it('expands the default profile once for the terminal and schedules when no other channel is on', () => {
    expect(describe_(configWith())).toEqual([{ status: 'ok', subject: 'tools', text: `cli, schedules (messaging): ${messaging}` }]);
  });

  it('applies a channel override and groups channels that offer the same set', () => {
    const config = configWith({
      channels: { telegram: { token: '1:x', tools: { profile: 'minimal' } }, webhook: { secret: 'a-webhook-secret' } },
    });
    expect(describe_(config).map((line) => line.text)).toEqual([
      'telegram (minimal): ask_user, message, session_search',
      `webhook, cli, schedules (messaging): ${messaging}`,
    ]);
  });

  it('warns once about an unknown tool name', () => {
    const config = configWith({ tools: { deny: 'web_fetch,no_such_tool' }, channels: { telegram: { token: '1:x' } } });
    const lines = describe_(config);
    expect(lines[0]?.text).toBe('telegram, cli, schedules (messaging - web_fetch - no_such_tool): ask_user, cancel_task, list_tasks, memory, message, schedule_task, session_search, todo');
    expect(lines.filter((line) => line.status === 'warn').map((line) => line.text)).toEqual([expect.stringContaining('Unknown tool "no_such_tool"')]);
  });
});

describe('selectionLabel', () => {
  it('names an allow list, additions and denials', () => {
    const global = { allow: [], alsoAllow: ['exec'], deny: [] };
    expect(selectionLabel({ ...global, profile: 'coding' })).toBe('coding + exec');
    expect(selectionLabel(global, { allow: ['message'] })).toBe('allow list');
  });
});
