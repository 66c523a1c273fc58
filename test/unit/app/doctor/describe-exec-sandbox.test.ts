import { describe, expect, it } from 'vitest';
import { describeGatewayExposure } from '../../../../src/doctor/check-gateway.js';
import { describeExecSandboxLine } from '../../../../src/app/doctor/describe-exec-sandbox.js';
import { probeBubblewrap } from '../../../../src/doctor/probe-bubblewrap.js';
import { builtinChannels } from '../../../../src/app/builtin-channels.js';
import type { Config } from '../../../../src/config/config-schema.js';
import { configWith } from '../../../fakes/config-with.js';

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

describe('describeGatewayExposure, from the adapters’ traits', () => {
  it('warns when a channel serves public routes (a webhook mode) on a gateway without a metrics token', () => {
    // Whether some channel serves public routes is what its adapter's traits say.
    const exposure = (config: Config) => describeGatewayExposure(config.gateway, builtinChannels.some((adapter) => adapter.traits(config).publicRoutes === true));
    expect(exposure(configWith())).toBeUndefined();
    expect(exposure(configWith({ gateway: { host: '0.0.0.0' } }))?.status).toBe('warn');
    expect(exposure(configWith({ channels: { telegram: { token: 't', mode: 'webhook' } } }))?.text).toContain('GATEWAY_METRICS_TOKEN');
    expect(exposure(configWith({ gateway: { host: '0.0.0.0', metricsToken: 'x' } }))).toBeUndefined();
  });
});
