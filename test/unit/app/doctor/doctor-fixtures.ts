import { type Config, configSchema } from '../../../../src/config/config-schema.js';

/** A validated configuration: the schema's defaults with the given sections merged in (one level deep). */
export function configWith(overrides: Record<string, unknown> = {}): Config {
  return configSchema.parse({ model: { primary: { provider: 'openai', name: 'gpt-4o-mini' } }, ...overrides });
}
