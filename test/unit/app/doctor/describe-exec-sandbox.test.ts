import { describe, expect, it } from 'vitest';
import { describeGatewayExposure } from '../../../../src/app/doctor/check-webhook.js';
import { describeExecSandboxLine } from '../../../../src/app/doctor/describe-exec-sandbox.js';
import { probeBubblewrap } from '../../../../src/app/doctor/probe-bubblewrap.js';
import { configWith } from './doctor-fixtures.js';

describe('describeExecSandboxLine', () => {
  it('says which mode exec runs in, and fails only when exec is offered without its sandbox', () => {
    const bwrap = { mode: 'bwrap', bwrapPath: '/usr/bin/bwrap', network: false, hiddenPaths: [] } as const;
    expect(describeExecSandboxLine({ sandbox: bwrap, execOffered: true, probe: { ok: true } })).toEqual({ status: 'ok', subject: 'sandbox', text: 'exec sandbox: bwrap (/usr/bin/bwrap), no network' });
    const broken = describeExecSandboxLine({ sandbox: bwrap, execOffered: true, probe: { ok: false, reason: 'No permissions to create new namespace' } });
    expect(broken).toMatchObject({ status: 'fail', text: expect.stringContaining('cannot build a sandbox here: No permissions') });
    const missing = { ...bwrap, bwrapPath: undefined };
    expect(describeExecSandboxLine({ sandbox: missing, execOffered: true })).toMatchObject({ status: 'fail', text: expect.stringContaining('exec is refused') });
    expect(describeExecSandboxLine({ sandbox: missing, execOffered: false }).status).toBe('warn');
    expect(describeExecSandboxLine({ sandbox: { mode: 'off' }, execOffered: true })).toMatchObject({ status: 'warn', text: expect.stringContaining('without a sandbox') });
  });
});

describe('probeBubblewrap', () => {
  it('builds a sandbox like exec does on this machine, and says why not for a program that is no bwrap', async () => {
    expect(await probeBubblewrap({ bwrapPath: '/usr/bin/bwrap', timeoutMs: 10_000 })).toEqual({ ok: true });
    expect(await probeBubblewrap({ bwrapPath: '/bin/false', timeoutMs: 10_000 })).toMatchObject({ ok: false });
  });
});

describe('describeGatewayExposure', () => {
  it('warns when the gateway is reachable from outside without a metrics token', () => {
    expect(describeGatewayExposure(configWith())).toBeUndefined();
    expect(describeGatewayExposure(configWith({ gateway: { host: '0.0.0.0' } }))?.status).toBe('warn');
    expect(describeGatewayExposure(configWith({ channels: { telegram: { token: 't', mode: 'webhook' } } }))?.text).toContain('WEBHOOK_METRICS_TOKEN');
    expect(describeGatewayExposure(configWith({ gateway: { host: '0.0.0.0', metricsToken: 'x' } }))).toBeUndefined();
  });
});
