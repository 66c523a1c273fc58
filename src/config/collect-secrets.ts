import { isSecretName } from './is-secret-name.js';
import { type ChannelConfigSection, channelSecrets } from './channel-config-section.js';
import type { Config } from './config-schema.js';
import { parseOtlpHeaders } from './tracing-schema.js';

/** Every secret value in the configuration (the channels' from the secret keys their sections declare), so the logger can scrub them from any line. */
export function collectSecrets(config: Config, channels: readonly ChannelConfigSection[]): string[] {
  const values = [
    config.model.primary.apiKey,
    config.model.fallback?.apiKey,
    config.model.transcription.apiKey,
    ...channelSecrets(config, channels),
    config.gateway.metricsToken,
    ...Object.values(config.hooks).map((hook) => hook.secret),
    config.mcp.secretKey,
    ...Object.values(config.mcp.servers).map((server) => server.oauth?.clientSecret),
    ...Object.values(config.tools.credentials).flatMap((entry) => Object.values(entry)),
    // MCP headers (Authorization) and child variables with secret-looking names, with a `Bearer ` prefix counted apart.
    ...Object.values(config.mcp.servers).flatMap((server) =>
      [...Object.entries(server.headers), ...Object.entries(server.env)].filter(([name]) => isSecretName(name)).flatMap(([, value]) => [value, value.replace(/^(Bearer|Basic)\s+/i, '')]),
    ),
    ...config.mcp.serve.keys.map((entry) => entry.key),
    // A2A peer headers carry the peer's key: every value counts as a secret.
    ...Object.values(config.a2a.peers).flatMap((peer) => Object.values(peer.headers).flatMap((value) => [value, value.replace(/^(Bearer|Basic)\s+/i, '')])),
    // OTLP headers carry a vendor's API key (Honeycomb, Langfuse): every value counts as a secret.
    ...Object.values(parseOtlpHeaders(config.tracing.headers ?? '')).flatMap((value) => [value, value.replace(/^(Bearer|Basic)\s+/i, '')]),
  ];
  // Very short values would scrub ordinary words out of log lines; real secrets are longer.
  return values.filter((value): value is string => value !== undefined && value.length >= 6);
}
