import type { HttpRoute } from '../../src/gateway/http-route.js';
import { apiError } from './api-error.js';
import type { ApiKeyring } from './api-keyring.js';

/** The path the model list is served on. */
export const modelsPath = '/v1/models';

/** GET /v1/models: the agent as the one model (behind the same keys), so clients that list models before they talk can pick it. */
export function createModelsRoute(options: { readonly keyring: ApiKeyring; readonly modelId: string; readonly createdAt: Date }): HttpRoute {
  return {
    method: 'GET',
    path: modelsPath,
    async handle(request) {
      const key = options.keyring.check(request.headers.authorization);
      if (!key.ok) return apiError(401, 'authentication_error', 'invalid_api_key', 'The API key is missing or not valid.', { 'WWW-Authenticate': 'Bearer' });
      return { status: 200, body: { object: 'list', data: [{ id: options.modelId, object: 'model', created: Math.floor(options.createdAt.getTime() / 1000), owned_by: 'echo-agent' }] } };
    },
  };
}
