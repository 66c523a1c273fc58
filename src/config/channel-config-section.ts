import type { z } from 'zod';
import type { Config } from './config-schema.js';

/**
 * A channel's part of the configuration, `channels.<name>`, contributed by its adapter: the schema fragment, the
 * environment variables that fill its keys, and which keys hold secrets. The loader builds `channels` from the
 * sections it is given, so src/config never names a channel.
 */
export type ChannelConfigSection<Schema extends z.ZodType = z.ZodType> = {
  /** The key under `channels`: the adapter's name. */
  readonly name: string;
  /** The section's zod schema (a strict object whose keys all have defaults, so an absent section is valid). */
  readonly schema: Schema;
  /** Environment variable of each top-level key it fills (`token` → `TELEGRAM_BOT_TOKEN`); a config file wins over it. */
  readonly environment: Readonly<Record<string, string>>;
  /** Top-level keys whose values are secrets: masked in logs, audit lines and the doctor's report. */
  readonly secrets: readonly string[];
  /** Variables the channel once read that now have another name (old → new): a set old one stops start-up with both names. */
  readonly renamedVariables: Readonly<Record<string, string>>;
  /** The channel's section of a loaded configuration, typed (the defaults when the config has no such section). */
  read(config: Config): z.output<Schema>;
};

/** Builds a channel's config section from its schema; `read` validates once per loaded configuration. */
export function createChannelConfigSection<Schema extends z.ZodType<object>>(options: {
  readonly name: string;
  readonly schema: Schema;
  readonly environment: Readonly<Partial<Record<keyof z.input<Schema> & string, string>>>;
  readonly secrets: readonly (keyof z.output<Schema> & string)[];
  readonly renamedVariables?: Readonly<Record<string, string>>;
}): ChannelConfigSection<Schema> {
  const parsedBySection = new WeakMap<object, z.output<Schema>>();
  const environment: Record<string, string> = {};
  for (const [key, variable] of Object.entries(options.environment)) if (typeof variable === 'string') environment[key] = variable;
  return {
    name: options.name,
    schema: options.schema,
    environment,
    secrets: options.secrets,
    renamedVariables: options.renamedVariables ?? {},
    read(config) {
      const section = config.channels[options.name];
      const key = typeof section === 'object' && section !== null ? section : config.channels;
      const cached = parsedBySection.get(key);
      if (cached !== undefined) return cached;
      // The loader already validated the section; parsing its output again is idempotent and keeps the type honest.
      // Parsed once per configuration: zod's compiled fast path would cost more to build than it saves.
      const parsed = options.schema.parse(section ?? {}, { jitless: true });
      parsedBySection.set(key, parsed);
      return parsed;
    },
  };
}

/** Every secret value in the channels' sections of a configuration. */
export function channelSecrets(config: Config, sections: readonly ChannelConfigSection[]): string[] {
  return sections.flatMap((section) => {
    const values = config.channels[section.name];
    if (typeof values !== 'object' || values === null) return [];
    // A secret key may hold a list (several API keys): each string in it, or each entry's `secret`, is a secret.
    const secretsIn = (value: unknown): unknown[] => (Array.isArray(value) ? value.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { readonly secret?: unknown }).secret : entry)) : [value]);
    return section.secrets.flatMap((key) => secretsIn((values as Readonly<Record<string, unknown>>)[key])).filter((value): value is string => typeof value === 'string');
  });
}

/** The environment's values for the sections' variables, as a config layer under the config files (set variables only). */
export function channelEnvironmentLayer(sections: readonly ChannelConfigSection[], environment: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const channels: Record<string, Record<string, string>> = {};
  for (const section of sections) {
    const values: Record<string, string> = {};
    for (const [key, variable] of Object.entries(section.environment)) {
      const value = environment[variable];
      if (value !== undefined && value !== '') values[key] = value;
    }
    channels[section.name] = values;
  }
  return { channels };
}

/** One line per renamed variable that is still set while its new name is not: the value would otherwise be ignored. */
export function renamedVariableErrors(sections: readonly ChannelConfigSection[], environment: Readonly<Record<string, string | undefined>>): string[] {
  return sections.flatMap((section) =>
    Object.entries(section.renamedVariables)
      .filter(([old, renamed]) => environment[old] !== undefined && environment[old] !== '' && (environment[renamed] === undefined || environment[renamed] === ''))
      .map(([old, renamed]) => `${old} is now called ${renamed}: rename it in your environment or .env (its value is not read under the old name).`),
  );
}
