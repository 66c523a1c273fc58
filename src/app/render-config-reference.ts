import { z } from 'zod';
import type { ChannelConfigSection } from '../config/channel-config-section.js';
import { createConfigSchema } from '../config/config-schema.js';

type JsonSchema = {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly additionalProperties?: JsonSchema | boolean;
  readonly minimum?: number;
  readonly maximum?: number;
};

type Row = { readonly path: string; readonly type: string; readonly defaultValue: string; readonly variable: string; readonly description: string };

/** Environment variables config/default.yaml reads, by key path (`channels.telegram.token` → `TELEGRAM_BOT_TOKEN`). */
export function variablesByPath(defaultYaml: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (defaultYaml === null || typeof defaultYaml !== 'object' || Array.isArray(defaultYaml)) return found;
  for (const [key, value] of Object.entries(defaultYaml)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') {
      const match = /\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/.exec(value);
      if (match) found.set(path, match[2] !== undefined && match[2] !== '' ? `${match[1]} (default ${match[2]})` : (match[1] ?? ''));
    } else for (const [childPath, variable] of variablesByPath(value, path)) found.set(childPath, variable);
  }
  return found;
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).filter((type) => type !== 'null').join(' or ');
  if (schema.type === 'array') return `list of ${schema.items ? typeOf(schema.items) : 'values'}`;
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') return 'map';
  const base = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  const minimum = schema.minimum !== undefined && Math.abs(schema.minimum) < Number.MAX_SAFE_INTEGER ? schema.minimum : undefined;
  const maximum = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  const range = minimum !== undefined && maximum !== undefined ? ` (${minimum}–${maximum})` : minimum !== undefined ? ` (≥ ${minimum})` : maximum !== undefined ? ` (≤ ${maximum})` : '';
  return `${base}${range}`;
}

function collectRows(schema: JsonSchema, path: string, variables: ReadonlyMap<string, string>, rows: Row[]): void {
  const inner = schema.anyOf?.find((option) => option.type !== 'null') ?? schema;
  if (inner.type === 'object' && inner.properties) {
    for (const [key, child] of Object.entries(inner.properties)) collectRows(child, path === '' ? key : `${path}.${key}`, variables, rows);
    return;
  }
  // A map of named entries (mcp.servers.<name>): one row for the map, then the keys of an entry.
  const entry = typeof inner.additionalProperties === 'object' ? inner.additionalProperties : undefined;
  if (inner.type === 'object' && entry?.properties) {
    rows.push({ path, type: 'map', defaultValue: '', variable: '', description: (schema.description ?? inner.description ?? '').replace(/\|/g, '\\|') });
    collectRows(entry, `${path}.<name>`, variables, rows);
    return;
  }
  rows.push({
    path,
    type: typeOf(inner),
    defaultValue: schema.default === undefined ? '' : `\`${JSON.stringify(schema.default)}\``,
    variable: variables.get(path) ?? '',
    description: (schema.description ?? inner.description ?? '').replace(/\|/g, '\\|'),
  });
}

/** The configuration reference in Markdown, generated from the zod schema, config/default.yaml and the channels' sections. */
export function renderConfigReference(defaultYaml: unknown, channels: readonly ChannelConfigSection[]): string {
  const schema = z.toJSONSchema(createConfigSchema(channels), { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const variables = variablesByPath(defaultYaml);
  for (const section of channels) {
    for (const [key, variable] of Object.entries(section.environment)) variables.set(`channels.${section.name}.${key}`, variable);
  }
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated from src/config/config-schema.ts and each channel\'s channels/<name>/<name>-config.ts by `npm run docs:config`. Do not edit by hand; CI checks it is current. -->',
    '',
    '`npm start` reads `config/default.yaml`, then `config/local.yaml` (or the file given by `--config FILE` / `ECHO_CONFIG`) merged over it.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax is the text being documented.
    'Any string may use `${VAR}` or `${VAR:-default}`; a `.env` file in the project root fills variables the environment does not set.',
    'Lists may be YAML lists or comma-separated text (how environment variables carry them).',
    '',
  ];
  for (const [section, child] of Object.entries(schema.properties ?? {})) {
    const rows: Row[] = [];
    collectRows(child, section, variables, rows);
    lines.push(`## ${section}`, '', child.description ? `${child.description}\n` : '', '| key | type | default | environment variable | meaning |', '|---|---|---|---|---|');
    for (const row of rows) lines.push(`| \`${row.path}\` | ${row.type} | ${row.defaultValue} | ${row.variable ? `\`${row.variable}\`` : ''} | ${row.description} |`);
    lines.push('');
  }
  return `${lines.filter((line, index, all) => !(line === '' && all[index - 1] === '')).join('\n').trimEnd()}\n`;
}
