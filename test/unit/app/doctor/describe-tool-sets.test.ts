import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../../../tools/index.js';
import { describeToolSets, selectionLabel } from '../../../../src/app/doctor/describe-tool-sets.js';
import { configWith } from './doctor-fixtures.js';

const registered = builtinTools.map((tool) => tool.name);
const messaging = 'ask_user, cancel_task, list_tasks, memory, message, schedule_task, session_search, todo, web_fetch';

describe('describeToolSets', () => {
  it('expands the default profile once for the terminal and cron when no channel is on', () => {
    expect(describeToolSets(configWith(), registered)).toEqual([{ status: 'ok', subject: 'tools', text: `terminal, cron (messaging): ${messaging}` }]);
  });

  it('applies a channel override and groups channels that offer the same set', () => {
    const config = configWith({
      channels: { telegram: { token: '1:x', tools: { profile: 'minimal' } }, webhook: { secret: 'a-webhook-secret' } },
    });
    expect(describeToolSets(config, registered).map((line) => line.text)).toEqual([
      'telegram (minimal): ask_user, message, session_search',
      `webhook, terminal, cron (messaging): ${messaging}`,
    ]);
  });

  it('warns once about an unknown tool name', () => {
    const config = configWith({ tools: { deny: 'web_fetch,no_such_tool' }, channels: { telegram: { token: '1:x' } } });
    const lines = describeToolSets(config, registered);
    expect(lines[0]?.text).toBe('telegram, terminal, cron (messaging - web_fetch - no_such_tool): ask_user, cancel_task, list_tasks, memory, message, schedule_task, session_search, todo');
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
