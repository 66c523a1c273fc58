import { describe, expect, it } from 'vitest';
import { counterKey, counterKeysOfCall, idsOfCall, parseCounterKey } from '../../../src/budgets/usage-counters.js';
import type { UsageAttribution } from '../../../src/model/model-port.js';

const attributions: readonly UsageAttribution[] = [
  { origin: 'user', sessionKey: 'telegram:1', channel: 'telegram', chatId: '1', userId: '7' },
  { origin: 'user', sessionKey: 'webhook:c', channel: 'webhook', chatId: 'c' },
  { origin: 'schedule', sessionKey: 'telegram:1', channel: 'telegram', chatId: '1', jobId: 'job-9', userId: '7' },
  { origin: 'schedule', sessionKey: 'cron:x', channel: 'cron', chatId: 'x|y', jobId: 'job|10' },
];

describe('counterKeysOfCall', () => {
  it('gives the counter key of the day for each id of the call, in the order of idsOfCall', () => {
    for (const attribution of attributions) {
      const expected = idsOfCall(attribution, 'gpt-x').map(([dimension, id]) => counterKey({ period: 'day:2026-12-02', dimension, id }));
      expect(counterKeysOfCall(attribution, 'gpt-x', 'day:2026-12-02')).toEqual(expected);
    }
  });

  it('makes keys that parse back to their coordinates', () => {
    const keys = counterKeysOfCall(attributions[2] as UsageAttribution, 'gpt-x', 'day:2026-12-02');
    expect(keys.map((key) => parseCounterKey(key))).toEqual([
      { period: 'day:2026-12-02', dimension: 'chat', id: 'telegram:1' },
      { period: 'day:2026-12-02', dimension: 'user', id: 'telegram:7' },
      { period: 'day:2026-12-02', dimension: 'job', id: 'job-9' },
      { period: 'day:2026-12-02', dimension: 'global', id: 'all' },
      { period: 'day:2026-12-02', dimension: 'model', id: 'gpt-x' },
      { period: 'day:2026-12-02', dimension: 'origin', id: 'schedule' },
    ]);
  });
});
