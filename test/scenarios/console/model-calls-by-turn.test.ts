import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/registry/audit-log.js';
import type { ModelUsageReport } from '../../../src/telemetry/telemetry.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

describe('model calls are filed under their turn', () => {
  let scenario: TelegramScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('each model call of a turn carries the trace id its tool calls are audited with, and how long it took', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    const reports: ModelUsageReport[] = [];
    const audited: AuditEntry[] = [];
    scenario.testApp.app.telemetry.onModelUsage((report) => reports.push(report));
    scenario.testApp.app.telemetry.onAudit((entry) => audited.push(entry));
    scenario.model.enqueue({ toolCalls: [{ name: 'todo', arguments: { action: 'add', text: 'water the plants' } }] });
    scenario.model.enqueue({ text: 'Added.' });
    const client = scenario.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('add watering to my list'));
    await scenario.waitForBotMessage((message) => message.text.includes('Added.'), 'the answer');

    const toolCall = audited.find((entry) => entry.tool === 'todo');
    expect(toolCall?.traceId).toBeDefined();
    const turnCalls = reports.filter((report) => report.origin === 'user');
    expect(turnCalls).toHaveLength(2);
    for (const report of turnCalls) {
      expect(report.traceId).toBe(toolCall?.traceId);
      expect(report.durationMs).toBeGreaterThanOrEqual(0);
    }
  });
});
