import { AgentCard } from '@a2a-js/sdk';
import type { HttpRequest, HttpResponse, HttpRoute } from '../../src/gateway/http-route.js';
import type { A2aConfig } from './a2a-config.js';
import { agentCardPath, buildAgentCard, buildLegacyAgentCard } from './agent-card.js';

/**
 * GET /.well-known/agent-card.json: the card, public (it says how to authenticate, never a key). Its endpoint URL is
 * the configured public URL, else the scheme and Host the card was asked on. A request with `A2A-Version: 1.0` gets
 * the v1.0 card; one without it (a v0.3 client) the v0.3 shape.
 */
export function createAgentCardRoute(options: { readonly settings: A2aConfig; readonly version: string }): HttpRoute {
  return { method: 'GET', path: agentCardPath, handle };

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const baseUrl = options.settings.publicUrl ?? baseUrlOf(request);
    const headers = { 'Cache-Control': 'no-cache', Vary: 'A2A-Version' };
    if ((request.headers['a2a-version'] ?? '0.3') === '0.3') return { status: 200, body: buildLegacyAgentCard(options.settings, baseUrl, options.version), headers };
    return { status: 200, body: AgentCard.toJSON(buildAgentCard(options.settings, baseUrl, options.version)), headers };
  }
}

/** The base URL a request reached: `X-Forwarded-Proto` (else http) and the Host header. Pure. */
export function baseUrlOf(request: Pick<HttpRequest, 'headers'>): string {
  const scheme = request.headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  const host = /^[A-Za-z0-9.:[\]-]{1,255}$/.test(request.headers.host ?? '') ? request.headers.host : 'localhost';
  return `${scheme}://${host}`;
}
