import { describe, expect, it } from 'vitest';
import { describeConsole } from '../../../src/doctor/describe-console.js';
import { configWith } from '../../fakes/config-with.js';

describe('describeConsole', () => {
  it('says nothing while off, ok over https or on this machine, and warns when reachable without TLS', () => {
    expect(describeConsole(configWith({}))).toEqual([]);
    expect(describeConsole(configWith({ console: { enabled: true, publicUrl: 'https://echo.example.com/' } }))[0]).toMatchObject({ status: 'ok', text: expect.stringContaining('https://echo.example.com/console') });
    expect(describeConsole(configWith({ console: { enabled: true } }))[0]).toMatchObject({ status: 'ok', text: expect.stringContaining('this machine only') });
    expect(describeConsole(configWith({ console: { enabled: true }, gateway: { host: '0.0.0.0' } }))[0]?.status).toBe('warn');
    expect(describeConsole(configWith({ console: { enabled: true, publicUrl: 'http://echo.example.com' } }))[0]).toMatchObject({ status: 'warn', text: expect.stringContaining('CONSOLE_PUBLIC_URL=https://') });
  });
});
