import { describe, expect, it } from 'vitest';
import { createModelCallLog } from '../../../src/console/model-call-log.js';
import { createTelemetry } from '../../../src/telemetry/telemetry.js';

describe('the console’s model call log', () => {
  it('keeps the newest calls, newest first, up to its limit', () => {
    const telemetry = createTelemetry();
    let minute = 0;
    const log = createModelCallLog({ telemetry, now: () => new Date(Date.UTC(2026, 11, 2, 10, minute++)), limit: 2 });
    for (const model of ['a', 'b', 'c']) telemetry.emitModelUsage({ model, channel: 'chat', origin: 'message', sessionKey: 'chat:1', inputTokens: 10, cachedInputTokens: 0, outputTokens: 5 });
    expect(log.recent().map((call) => [call.model, call.at])).toEqual([
      ['c', '2026-12-02T10:02:00.000Z'],
      ['b', '2026-12-02T10:01:00.000Z'],
    ]);
  });
});
