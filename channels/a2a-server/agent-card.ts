import type { AgentCard } from '@a2a-js/sdk';
import type { A2aConfig } from './a2a-config.js';

/** The JSON-RPC endpoint's path on the gateway. */
export const a2aRpcPath = '/a2a';

/** Where the Agent Card is served (the A2A well-known path). */
export const agentCardPath = '/.well-known/agent-card.json';

/** The security scheme's name on the card. */
const bearerScheme = 'bearer';

/**
 * The Agent Card: name, description and skills from config; one JSON-RPC interface at `<base>/a2a` (protocol 1.0, and
 * 0.3 for clients that send `message/send`); bearer auth required. `baseUrl` is the public URL, or the Host it was
 * asked on. Pure.
 */
export function buildAgentCard(settings: A2aConfig, baseUrl: string, version: string): AgentCard {
  const url = `${baseUrl.replace(/\/+$/, '')}${a2aRpcPath}`;
  return {
    name: settings.name,
    description: settings.description,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: undefined,
    version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: { [bearerScheme]: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'A key the operator gave this caller.', scheme: 'Bearer', bearerFormat: '' } } } },
    securityRequirements: [{ schemes: { [bearerScheme]: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: settings.skills.map((skill) => ({ ...skill, inputModes: [], outputModes: [], securityRequirements: [] })),
    signatures: [],
  };
}

/**
 * The same card in the v0.3 shape (`url`, `preferredTransport`, `security`), for clients that ask without
 * `A2A-Version: 1.0` (as the SDK's own card handler does with its compatibility layer on). Pure.
 */
export function buildLegacyAgentCard(settings: A2aConfig, baseUrl: string, version: string): Record<string, unknown> {
  const url = `${baseUrl.replace(/\/+$/, '')}${a2aRpcPath}`;
  return {
    protocolVersion: '0.3.0',
    name: settings.name,
    description: settings.description,
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    version,
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { [bearerScheme]: { type: 'http', scheme: 'bearer', description: 'A key the operator gave this caller.' } },
    security: [{ [bearerScheme]: [] }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: settings.skills.map((skill) => ({ id: skill.id, name: skill.name, description: skill.description, tags: skill.tags, examples: skill.examples })),
  };
}
