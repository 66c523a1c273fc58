import { channelConfigSections } from '../../src/app/builtin-channels.js';
import { type Config, createConfigSchema } from '../../src/config/config-schema.js';

const configSchema = createConfigSchema(channelConfigSections());

/** A validated configuration: the schema's defaults with the given sections merged in (one level deep). */
export function configWith(overrides: Record<string, unknown> = {}): Config {
  return configSchema.parse({ model: { primary: { provider: 'openai', name: 'gpt-4o-mini' } }, ...overrides });
}
