import { createResilientModel } from '../agent/resilient-model.js';
import type { ModelPort } from '../model/model-port.js';
import type { Config } from '../config/config-schema.js';

type Endpoint = Config['model']['primary'];

const openAiDefaultHost = 'api.openai.com';

/** Why an endpoint cannot be used, or undefined when it can. */
export function endpointProblem(endpoint: Endpoint): string | undefined {
  if (endpoint.provider === 'anthropic') return endpoint.apiKey ? undefined : 'ANTHROPIC_API_KEY is not set';
  const isDefaultHost = (endpoint.baseUrl ?? `https://${openAiDefaultHost}/v1`).includes(openAiDefaultHost);
  // A local OpenAI-compatible server (Ollama, vLLM) needs no key; api.openai.com does.
  return isDefaultHost && !endpoint.apiKey ? 'OPENAI_API_KEY is not set' : undefined;
}

/** Builds one provider, importing its SDK only now: an unused SDK costs nothing at start-up. */
async function createProvider(endpoint: Endpoint, name: string): Promise<ModelPort> {
  if (endpoint.provider === 'anthropic') {
    const { createAnthropicProvider } = await import('../agent/providers/anthropic/index.js');
    return createAnthropicProvider({ name, apiKey: endpoint.apiKey ?? '', baseUrl: endpoint.baseUrl, model: endpoint.name, timeoutMs: endpoint.timeoutMs });
  }
  const { createOpenAiProvider } = await import('../agent/providers/openai/index.js');
  return createOpenAiProvider({ name, apiKey: endpoint.apiKey ?? '', baseUrl: endpoint.baseUrl, model: endpoint.name, timeoutMs: endpoint.timeoutMs, stream: endpoint.stream });
}

/** A model for one endpoint without failover (the approval reviewer's own model), or why it cannot be used. */
export async function createEndpointModel(endpoint: Endpoint, retries: number): Promise<{ ok: true; model: ModelPort } | { ok: false; error: string }> {
  const problem = endpointProblem(endpoint);
  if (problem) return { ok: false, error: problem };
  const provider = await createProvider(endpoint, `${endpoint.provider}:${endpoint.name}`);
  return { ok: true, model: createResilientModel({ providers: [provider], retries }) };
}

/** The configured model with retries and failover, or one sentence saying what to set. */
export async function createModel(config: Config): Promise<{ ok: true; model: ModelPort; names: readonly string[] } | { ok: false; error: string }> {
  const endpoints = [config.model.primary, config.model.fallback].filter((endpoint): endpoint is Endpoint => endpoint !== undefined);
  const usable = endpoints.filter((endpoint) => endpointProblem(endpoint) === undefined);
  if (usable.length === 0) {
    return {
      ok: false,
      error:
        'No model is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server such as Ollama), or ANTHROPIC_API_KEY. See config/.env.example.',
    };
  }
  const providers = await Promise.all(usable.map((endpoint, index) => createProvider(endpoint, `${endpoint.provider}:${endpoint.name}${index === 0 ? '' : ' (fallback)'}`)));
  return { ok: true, model: createResilientModel({ providers, retries: config.model.retries }), names: providers.map((provider) => provider.name) };
}
