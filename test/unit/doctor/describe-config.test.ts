import { describe, expect, it } from 'vitest';
import { describeConfig, shortPath } from '../../../src/doctor/describe-config.js';
import { describeNodeVersion } from '../../../src/doctor/describe-node-version.js';
import { configWith } from '../../fakes/config-with.js';

const root = '/srv/echo-agent';

describe('describeConfig', () => {
  it('lists the files read, inside the project by their short path', () => {
    const loaded = { ok: true as const, config: configWith(), root, files: [`${root}/config/default.yaml`, '/etc/echo/override.yaml'], loadedFiles: [`${root}/config/default.yaml`, '/etc/echo/override.yaml', `${root}/.env`] };
    expect(describeConfig(loaded, { root, dotenvFound: true })).toEqual([{ status: 'ok', subject: 'config', text: 'valid (read config/default.yaml, /etc/echo/override.yaml, .env)' }]);
  });

  it('fails with one line per bad key', () => {
    const loaded = { ok: false as const, files: [`${root}/config/default.yaml`], errors: ['channels.webhook.port: Invalid input (got "x")', 'model.primary.name: Too small'] };
    const lines = describeConfig(loaded, { root, dotenvFound: false });
    expect(lines.map((line) => line.status)).toEqual(['fail', 'fail', 'fail']);
    expect(lines.map((line) => line.text)).toEqual(['not valid (read config/default.yaml):', 'channels.webhook.port: Invalid input (got "x")', 'model.primary.name: Too small']);
  });

  it('keeps paths outside the project whole', () => {
    expect(shortPath('/srv/echo-agent-other/x.yaml', root)).toBe('/srv/echo-agent-other/x.yaml');
    expect(shortPath(`${root}/config/local.yaml`, root)).toBe('config/local.yaml');
  });
});

describe('describeNodeVersion', () => {
  it('wants Node 20.12 or newer', () => {
    expect(describeNodeVersion('v20.12.0').status).toBe('ok');
    expect(describeNodeVersion('v22.1.0').status).toBe('ok');
    expect(describeNodeVersion('v20.11.1')).toEqual({ status: 'fail', subject: 'node', text: 'v20.11.1 is too old: echo-agent needs Node 20.12 or newer' });
  });
});
