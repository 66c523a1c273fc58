import { describe, expect, it } from 'vitest';
import { createGatewayMetrics } from '../../../src/gateway/gateway-metrics.js';
import { createTelemetry } from '../../../src/telemetry/telemetry.js';

describe('gateway metrics', () => {
  it('counts turns, tool calls and approvals from telemetry, and reads the queue depth when scraped', async () => {
    const telemetry = createTelemetry();
    let queued = 3;
    const metrics = createGatewayMetrics({ telemetry, bus: { stats: () => ({ queued, active: 1, sessions: 2 }) } });
    telemetry.emitTurnFinished({ causationId: 'a', sessionKey: 's', status: 'completed' });
    telemetry.emitTurnFinished({ causationId: 'b', sessionKey: 's', status: 'failed' });
    telemetry.emitAudit({ kind: 'tool-call', tool: 'web_fetch', outcome: 'ok' });
    telemetry.emitAudit({ kind: 'approval-decided', tool: 'deploy', outcome: 'approved' });
    telemetry.emitEventHandled({ type: 'message-received', channel: 'webhook', durationMs: 1500, failed: false });
    const text = await metrics.text();
    expect(text).toContain('echo_turns_total{status="completed"} 1');
    expect(text).toContain('echo_turns_total{status="failed"} 1');
    expect(text).toContain('echo_tool_calls_total{tool="web_fetch",outcome="ok"} 1');
    expect(text).toContain('echo_approvals_total{kind="approval-decided",outcome="approved"} 1');
    expect(text).toContain('echo_queue_depth 3');
    expect(text).toContain('echo_turn_duration_seconds_bucket{le="2.5",channel="webhook",type="message-received",failed="false"} 1');
    expect(text).toContain('echo_turn_duration_seconds_bucket{le="1",channel="webhook",type="message-received",failed="false"} 0');
    queued = 0;
    expect(await metrics.text()).toContain('echo_queue_depth 0');

    metrics.dispose();
    telemetry.emitTurnFinished({ causationId: 'c', sessionKey: 's', status: 'completed' });
    expect(await metrics.text()).toContain('echo_turns_total{status="completed"} 1');
  });

  it('keeps tool label values bounded when the model invents tool names', async () => {
    const telemetry = createTelemetry();
    const metrics = createGatewayMetrics({ telemetry, bus: { stats: () => ({ queued: 0, active: 0, sessions: 0 }) } });
    for (let index = 0; index < 150; index += 1) telemetry.emitAudit({ kind: 'tool-call', tool: `invented_${index}`, outcome: 'denied' });
    const text = await metrics.text();
    expect(text).toContain('echo_tool_calls_total{tool="other",outcome="denied"} 50');
    expect(text).not.toContain('invented_120');
  });
});
