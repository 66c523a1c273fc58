import type { Config } from '../config/config-schema.js';

type Endpoint = Config['model']['primary'];

/** What one GET of the endpoint's model list came back with. */
export type ModelProbe =
  | { readonly kind: 'answered'; readonly status: number; readonly modelIds?: readonly string[] }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'network'; readonly code?: string; readonly message: string }
  | { readonly kind: 'invalid-url' };

/** The URL the doctor asks: `<baseUrl>/models` for OpenAI-compatible servers, `<baseUrl>/v1/models` for Anthropic. Pure. */
export function modelListUrl(endpoint: Endpoint): string {
  const trim = (url: string) => url.replace(/\/+$/, '');
  if (endpoint.provider === 'anthropic') return `${trim(endpoint.baseUrl ?? 'https://api.anthropic.com')}/v1/models`;
  return `${trim(endpoint.baseUrl ?? 'https://api.openai.com/v1')}/models`;
}

/** One plain HTTP GET of the model list with the endpoint's key, cut off at the deadline. Never throws. */
export async function probeModelEndpoint(endpoint: Endpoint, timeoutMs: number): Promise<ModelProbe> {
  let url: URL;
  try {
    url = new URL(modelListUrl(endpoint));
  } catch {
    return { kind: 'invalid-url' };
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (endpoint.provider === 'anthropic') {
    if (endpoint.apiKey) headers['x-api-key'] = endpoint.apiKey;
    headers['anthropic-version'] = '2023-06-01';
  } else if (endpoint.apiKey) {
    headers.authorization = `Bearer ${endpoint.apiKey}`;
  }
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { headers, signal });
    if (!response.ok) {
      await response.body?.cancel();
      return { kind: 'answered', status: response.status };
    }
    return { kind: 'answered', status: response.status, modelIds: readModelIds(await response.json().catch(() => undefined)) };
  } catch (error) {
    if (signal.aborted) return { kind: 'timeout' };
    const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
    const code = typeof cause?.code === 'string' ? cause.code : undefined;
    return { kind: 'network', code, message: typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error) };
  }
}

function readModelIds(body: unknown): readonly string[] | undefined {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.map((item) => (item as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string');
}
