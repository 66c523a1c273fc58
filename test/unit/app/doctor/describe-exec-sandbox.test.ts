import { describe, expect, it } from 'vitest';
import { describeGatewayExposure } from '../../../../src/app/doctor/check-webhook.js';
import { describeExecSandboxLine } from '../../../../src/app/doctor/describe-exec-sandbox.js';
import { configWith } from './doctor-fixtures.js';

describe('describeExecSandboxLine', () => {
  it('says which mode exec runs in, and fails only when exec is offered without its sandbox', () => {
    const bwrap = { mode: 'bwrap', bwrapPath: '/usr/bin/bwrap', network: false, hiddenPaths: [] } as const;
    expect(describeExecSandboxLine(bwrap, true)).toEqual({ status: 'ok', subject: 'sandbox', text: 'exec sandbox: bwrap (/usr/bin/bwrap), no network' });
    const missing = { ...bwrap, bwrapPath: undefined };
    expect(describeExecSandboxLine(missing, true)).toMatchObject({ status: 'fail', text: expect.stringContaining('exec is refused') });
    expect(describeExecSandboxLine(missing, false).status).toBe('warn');
    expect(describeExecSandboxLine({ mode: 'off' }, true)).toMatchObject({ status: 'warn', text: expect.stringContaining('without a sandbox') });
  });
});

describe('describeGatewayExposure', () => {
  it('warns when the gateway is reachable from outside without a metrics token', () => {
    expect(describeGatewayExposure(configWith())).toBeUndefined();
    expect(describeGatewayExposure(configWith({ channels: { webhook: { host: '0.0.0.0' } } }))?.status).toBe('warn');
    expect(describeGatewayExposure(configWith({ channels: { telegram: { token: 't', mode: 'webhook' } } }))?.text).toContain('WEBHOOK_METRICS_TOKEN');
    expect(describeGatewayExposure(configWith({ channels: { webhook: { host: '0.0.0.0', metricsToken: 'x' } } }))).toBeUndefined();
  });
});
