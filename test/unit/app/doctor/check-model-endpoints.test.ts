import { describe, expect, it } from 'vitest';
import { describeEndpointProblem, describeModelProbe } from '../../../../src/app/doctor/check-model-endpoints.js';
import { modelListUrl } from '../../../../src/doctor/probe-model-endpoint.js';
import type { Config } from '../../../../src/config/config-schema.js';

type Endpoint = Config['model']['primary'];
const openai = (overrides: Partial<Endpoint> = {}): Endpoint => ({ provider: 'openai', name: 'gpt-4o-mini', timeoutMs: 60_000, stream: true, vision: true, ...overrides });
const anthropic: Endpoint = { provider: 'anthropic', name: 'claude-sonnet-4-5', apiKey: 'sk-ant-secret', timeoutMs: 60_000, stream: true, vision: true };
const describe3s = (endpoint: Endpoint, probe: Parameters<typeof describeModelProbe>[0]['probe']) => describeModelProbe({ label: 'primary', endpoint, probe, timeoutMs: 3000 });

describe('modelListUrl', () => {
  it('asks <baseUrl>/models of OpenAI-compatible servers and <baseUrl>/v1/models of Anthropic', () => {
    expect(modelListUrl(openai())).toBe('https://api.openai.com/v1/models');
    expect(modelListUrl(openai({ baseUrl: 'http://localhost:11434/v1/' }))).toBe('http://localhost:11434/v1/models');
    expect(modelListUrl(anthropic)).toBe('https://api.anthropic.com/v1/models');
  });
});

describe('describeEndpointProblem', () => {
  it('fails the first unusable endpoint with the fix when none is usable, and offers the others as alternatives', () => {
    const first = describeEndpointProblem({ label: 'openai:gpt-4o-mini', problem: 'OPENAI_API_KEY is not set', provider: 'openai', anyUsable: false, isFirst: true });
    expect(first.status).toBe('fail');
    expect(first.text).toBe('openai:gpt-4o-mini: OPENAI_API_KEY is not set: set it, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama, vLLM)');
    const second = describeEndpointProblem({ label: 'anthropic:claude (fallback)', problem: 'ANTHROPIC_API_KEY is not set', provider: 'anthropic', anyUsable: false, isFirst: false });
    expect(second.status).toBe('off');
    expect(second.text).toContain('ANTHROPIC_API_KEY is not set');
  });

  it('only skips an unusable endpoint when another one works', () => {
    const line = describeEndpointProblem({ label: 'anthropic:claude (fallback)', problem: 'ANTHROPIC_API_KEY is not set', provider: 'anthropic', anyUsable: true, isFirst: false });
    expect(line.status).toBe('off');
    expect(line.text).toBe('anthropic:claude (fallback) is skipped: ANTHROPIC_API_KEY is not set');
  });
});

describe('describeModelProbe', () => {
  it('200 is reachable', () => {
    const line = describe3s(openai({ apiKey: 'sk-secret' }), { kind: 'answered', status: 200, modelIds: ['gpt-4o-mini'] });
    expect(line).toEqual({ status: 'ok', subject: 'model', text: 'primary: reachable at api.openai.com' });
  });

  it('401 and 403 are a refused key, naming the variable and never the key', () => {
    for (const status of [401, 403]) {
      const line = describe3s(openai({ apiKey: 'sk-secret' }), { kind: 'answered', status });
      expect(line.status).toBe('fail');
      expect(line.text).toContain(`the key was refused by api.openai.com (HTTP ${status}): check OPENAI_API_KEY`);
      expect(line.text).not.toContain('sk-secret');
    }
    expect(describe3s(anthropic, { kind: 'answered', status: 401 }).text).toContain('check ANTHROPIC_API_KEY');
  });

  it('a local server that wants a key says to set one', () => {
    const line = describe3s(openai({ baseUrl: 'http://localhost:8000/v1' }), { kind: 'answered', status: 401 });
    expect(line.text).toBe('primary: localhost:8000 wants a key (HTTP 401): set OPENAI_API_KEY');
  });

  it('a network error or a timeout is unreachable, naming the host only', () => {
    const endpoint = openai({ baseUrl: 'http://user:pass@10.0.0.5:11434/v1' });
    expect(describe3s(endpoint, { kind: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })).toEqual({ status: 'fail', subject: 'model', text: 'primary: cannot reach 10.0.0.5:11434 (connection refused)' });
    expect(describe3s(endpoint, { kind: 'timeout' }).text).toBe('primary: cannot reach 10.0.0.5:11434 (no answer within 3 s)');
  });

  it('warns when an OpenAI-compatible server does not list the configured model', () => {
    const line = describe3s(openai({ baseUrl: 'http://localhost:11434/v1', name: 'llama3.1' }), { kind: 'answered', status: 200, modelIds: ['qwen2.5'] });
    expect(line.status).toBe('warn');
    expect(line.text).toContain('does not list the model "llama3.1" (it lists qwen2.5)');
  });

  it('a missing model list warns about the base URL; a server error fails', () => {
    expect(describe3s(openai({ baseUrl: 'http://localhost:11434' }), { kind: 'answered', status: 404 })).toMatchObject({ status: 'warn', text: expect.stringContaining('check the base URL') });
    expect(describe3s(openai(), { kind: 'answered', status: 503 }).status).toBe('fail');
    expect(describe3s(openai({ baseUrl: 'not a url' }), { kind: 'invalid-url' }).status).toBe('fail');
  });
});
