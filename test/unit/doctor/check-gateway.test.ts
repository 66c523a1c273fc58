import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkGateway, describeGatewayExposure, describeListen, probeListen } from '../../../src/doctor/check-gateway.js';
import { configWith } from '../../fakes/config-with.js';

const settings = (gateway: Record<string, unknown> = {}) => configWith({ gateway }).gateway;

describe('describeGatewayExposure', () => {
  it('warns when the gateway is reachable from outside (a public host, or a channel serving public routes) without a metrics token', () => {
    expect(describeGatewayExposure(settings(), false)).toBeUndefined();
    expect(describeGatewayExposure(settings({ host: '0.0.0.0' }), false)?.status).toBe('warn');
    expect(describeGatewayExposure(settings(), true)?.text).toContain('GATEWAY_METRICS_TOKEN');
    expect(describeGatewayExposure(settings({ host: '0.0.0.0', metricsToken: 'x' }), true)).toBeUndefined();
  });
});

describe('describeListen', () => {
  it('names the port in use, and other failures in words', () => {
    expect(describeListen({ ok: false, code: 'EADDRINUSE' }, settings()).text).toContain('port 8787 is in use');
    expect(describeListen({ ok: false, code: 'EACCES' }, settings({ port: 80 })).text).toContain('port 80 needs privileges');
    expect(describeListen({ ok: false, code: 'EADDRNOTAVAIL' }, settings({ host: '10.9.9.9' })).text).toContain('10.9.9.9 is not an address of this machine');
    expect(describeListen({ ok: true }, settings())).toEqual({ status: 'ok', subject: 'gateway', text: '127.0.0.1:8787 is free for the HTTP gateway (/healthz, /metrics)' });
  });
});

describe('checkGateway', () => {
  it('fails when something already listens on the port, and passes once it is free again', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const [busy] = await checkGateway(settings({ port }), false);
    expect(busy).toMatchObject({ status: 'fail', text: expect.stringContaining(`port ${port} is in use`) });
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    expect(await probeListen({ host: '127.0.0.1', port })).toEqual({ ok: true });
  });
});
