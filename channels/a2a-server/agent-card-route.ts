import { AgentCard } from '@a2a-js/sdk';
import type { HttpRequest, HttpResponse, HttpRoute } from '../../src/gateway/http-route.js';
import type { A2aConfig } from './a2a-config.js';
import { agentCardPath, buildAgentCard } from './agent-card.js';

/**
 * GET /.well-known/agent-card.json: the card, public (it says how to authenticate, never a key). Its endpoint URL is
 * the configured public URL, else the scheme and Host the card was asked on.
 */
export function createAgentCardRoute(options: { readonly settings: A2aConfig; readonly version: string }): HttpRoute {
  return { method: 'GET', path: agentCardPath, handle };

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const card = buildAgentCard(options.settings, options.settings.publicUrl ?? baseUrlOf(request), options.version);
    return { status: 200, body: AgentCard.toJSON(card), headers: { 'Cache-Control': 'no-cache' } };
  }
}

/** The base URL a request reached: `X-Forwarded-Proto` (else http) and the Host header. Pure. */
export function baseUrlOf(request: Pick<HttpRequest, 'headers'>): string {
  const scheme = request.headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  const host = /^[A-Za-z0-9.:[\]-]{1,255}$/.test(request.headers.host ?? '') ? request.headers.host : 'localhost';
  return `${scheme}://${host}`;
}
