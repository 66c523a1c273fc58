import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinTools } from '../../../tools/index.js';

describe('builtinTools', () => {
  it('holds every built-in tool once, with a valid name', () => {
    const names = builtinTools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(names.sort()).toEqual(
      [
        'ask_user',
        'cancel_task',
        'delegate',
        'edit_file',
        'exec',
        'list_dir',
        'list_tasks',
        'memory',
        'message',
        'read_file',
        'schedule_task',
        'send_file',
        'session_search',
        'todo',
        'web_fetch',
        'write_file',
      ].sort(),
    );
  });

  it.each(builtinTools.map((tool) => [tool.name, tool] as const))('%s has a JSON Schema input whose every field is described', (_name, tool) => {
    expect(tool.description.length).toBeGreaterThan(40);
    const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { type?: string; properties?: Record<string, { description?: string }> };
    expect(schema.type).toBe('object');
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      expect(property.description, `${tool.name}.${field}`).toEqual(expect.any(String));
    }
  });

  const samples: Record<string, unknown> = {
    ask_user: { question: 'Which one?', options: ['A', 'B'] },
    cancel_task: { id: 'abc' },
    delegate: { name: 'fix-tests', instructions: 'Fix the tests.', tools: ['exec'], limits: { modelCalls: 4 } },
    edit_file: { path: 'a.txt', oldText: 'x', newText: 'y' },
    exec: { command: 'ls' },
    list_dir: {},
    list_tasks: {},
    memory: { action: 'remember', key: 'k', value: 'v' },
    message: { text: 'hi' },
    read_file: { path: 'a.txt' },
    schedule_task: { schedule: '0 9 * * *', prompt: 'p' },
    send_file: { path: 'chart.png', caption: 'the chart' },
    session_search: { query: 'q' },
    todo: { action: 'add', text: 't' },
    web_fetch: { url: 'https://example.com/' },
    write_file: { path: 'a.txt', content: 'c' },
  };

  it.each(builtinTools.map((tool) => [tool.name, tool] as const))('%s describes a call for the approval card', (name, tool) => {
    const summary = tool.describeForApproval?.(tool.input.parse(samples[name]), { timezone: 'UTC' });
    expect(summary).toEqual(expect.stringMatching(/\S{2,}/));
  });
});
