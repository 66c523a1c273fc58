import { hostOf } from '../../logging/host-of.js';
import type { Config } from '../../config/config-schema.js';
import { endpointProblem } from '../create-model.js';
import { type DoctorLine, doctorLine, formatSeconds } from '../../doctor/doctor-line.js';
import { type ModelProbe, modelListUrl, probeModelEndpoint } from '../../doctor/probe-model-endpoint.js';
import { describeNetworkCode } from '../../doctor/describe-network-code.js';

type Endpoint = Config['model']['primary'];

/** One line per configured endpoint: what is missing, or whether it answers with the configured key. */
export async function checkModelEndpoints(model: Config['model'], timeoutMs: number): Promise<DoctorLine[]> {
  const endpoints = [model.primary, model.fallback]
    .filter((endpoint): endpoint is Endpoint => endpoint !== undefined)
    .map((endpoint, index) => ({ endpoint, label: `${endpoint.provider}:${endpoint.name}${index === 0 ? '' : ' (fallback)'}`, problem: endpointProblem(endpoint) }));
  const anyUsable = endpoints.some((entry) => entry.problem === undefined);
  return Promise.all(
    endpoints.map(async ({ endpoint, label, problem }, index) => {
      if (problem !== undefined) return describeEndpointProblem({ label, problem, provider: endpoint.provider, anyUsable, isFirst: index === 0 });
      return describeModelProbe({ label, endpoint, probe: await probeModelEndpoint(endpoint, timeoutMs), timeoutMs });
    }),
  );
}

/**
 * An endpoint that cannot be used. When another can, it is only skipped. When none can, the first
 * is the one failure (one fix is enough) and the others are offered as alternatives. Pure.
 */
export function describeEndpointProblem(input: { readonly label: string; readonly problem: string; readonly provider: Endpoint['provider']; readonly anyUsable: boolean; readonly isFirst: boolean }): DoctorLine {
  if (input.anyUsable) return doctorLine('off', 'model', `${input.label} is skipped: ${input.problem}`);
  if (!input.isFirst) return doctorLine('off', 'model', `${input.label}: ${input.problem} (setting it instead works too)`);
  const hint = input.provider === 'openai' ? 'set it, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama, vLLM)' : 'set it';
  return doctorLine('fail', 'model', `${input.label}: ${input.problem}: ${hint}`);
}

/** What the model-list request says about an endpoint: reachable, key refused, or unreachable (with the host). Pure. */
export function describeModelProbe(input: { readonly label: string; readonly endpoint: Endpoint; readonly probe: ModelProbe; readonly timeoutMs: number }): DoctorLine {
  const { label, endpoint, probe } = input;
  const host = hostOf(modelListUrl(endpoint));
  const keyName = endpoint.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  switch (probe.kind) {
    case 'invalid-url':
      return doctorLine('fail', 'model', `${label}: the base URL is not a valid URL`);
    case 'timeout':
      return doctorLine('fail', 'model', `${label}: cannot reach ${host} (no answer within ${formatSeconds(input.timeoutMs)})`);
    case 'network':
      return doctorLine('fail', 'model', `${label}: cannot reach ${host} (${describeNetworkCode(probe.code) ?? probe.message})`);
    case 'answered':
      break;
  }
  const { status } = probe;
  if (status >= 200 && status < 300) {
    const ids = probe.modelIds ?? [];
    // Only OpenAI-compatible servers list the exact names they accept (Anthropic lists dated ids, not aliases).
    if (endpoint.provider === 'openai' && ids.length > 0 && !ids.includes(endpoint.name)) {
      const offered = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', ...' : '');
      return doctorLine('warn', 'model', `${label}: ${host} is reachable, but does not list the model "${endpoint.name}" (it lists ${offered}); set ECHO_MODEL`);
    }
    return doctorLine('ok', 'model', `${label}: reachable at ${host}`);
  }
  if (status === 401 || status === 403) {
    const what = endpoint.apiKey ? `the key was refused by ${host} (HTTP ${status}): check ${keyName}` : `${host} wants a key (HTTP ${status}): set ${keyName}`;
    return doctorLine('fail', 'model', `${label}: ${what}`);
  }
  if (status === 404 || status === 405) {
    return doctorLine('warn', 'model', `${label}: ${host} answers, but not at ${new URL(modelListUrl(endpoint)).pathname} (HTTP ${status}); check the base URL (it usually ends in /v1)`);
  }
  if (status === 429) return doctorLine('warn', 'model', `${label}: reachable at ${host}, but it is rate-limiting this key (HTTP 429)`);
  if (status >= 500) return doctorLine('fail', 'model', `${label}: ${host} answered with a server error (HTTP ${status})`);
  return doctorLine('warn', 'model', `${label}: ${host} answered HTTP ${status} to the model list`);
}

