import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { channelConfigSections } from '../../../src/app/builtin-channels.js';
import { collectSecrets } from '../../../src/config/collect-secrets.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { parseOtlpHeaders, resolveTracingTarget } from '../../../src/config/tracing-schema.js';

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');

function configWith(environment: Record<string, string>) {
  const loaded = loadConfig({ channels: channelConfigSections(), root: repositoryRoot, environment, configFile: resolve(repositoryRoot, 'config', 'default.yaml') });
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return loaded.config;
}

describe('tracing from the standard OTEL_* variables', () => {
  it('is off when no endpoint is set', () => {
    expect(resolveTracingTarget(configWith({}).tracing)).toEqual({ enabled: false });
  });

  it('sends to <endpoint>/v1/traces with the service name and the headers', () => {
    const config = configWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_SERVICE_NAME: 'bot-one', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D123456,other = two' });
    expect(resolveTracingTarget(config.tracing)).toEqual({ enabled: true, url: 'http://collector:4318/v1/traces', serviceName: 'bot-one', headers: { 'x-api-key': 'abc=123456', other: 'two' } });
  });

  it('prefers the traces endpoint as given, and OTEL_TRACES_EXPORTER=none turns traces off', () => {
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://api.example.com/otel/traces' };
    expect(resolveTracingTarget(configWith(both).tracing)).toMatchObject({ enabled: true, url: 'https://api.example.com/otel/traces', serviceName: 'echo-agent' });
    expect(resolveTracingTarget(configWith({ ...both, OTEL_TRACES_EXPORTER: 'none' }).tracing)).toEqual({ enabled: false });
  });

  it('counts the header values as secrets, so the logger scrubs them', () => {
    const config = configWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20honeycomb-key-42' });
    expect(collectSecrets(config, channelConfigSections())).toEqual(expect.arrayContaining(['Bearer honeycomb-key-42', 'honeycomb-key-42']));
  });

  it('skips malformed header pairs', () => {
    expect(parseOtlpHeaders('novalue,=x,a=1,b=%E0%A4%A')).toEqual({ a: '1', b: '%E0%A4%A' });
  });
});
