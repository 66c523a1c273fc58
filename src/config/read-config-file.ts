import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describeError } from '../errors/echo-error.js';

/** `config/default.yaml` as the build compiled it (scripts/compile-default-config.mjs): the hash of its text and its value. */
type CompiledConfig = { readonly sha256: string; readonly value: unknown };

/** A config file's parsed value, or why it cannot be read as YAML (one sentence). */
export type ConfigFileReading = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

// Beside the compiled sources (dist/config/default.json); absent when running from the TypeScript sources.
const compiledDefaultUrl = new URL('../../config/default.json', import.meta.url);
let compiledDefault: CompiledConfig | null | undefined;

/**
 * Parses one YAML config file. A file whose text is exactly the `config/default.yaml` the build compiled takes the
 * compiled value instead, so an agent configured by environment variables alone never loads the YAML parser (73
 * modules, a tenth of start-up); any other text, an edited default included, is parsed.
 */
export function readConfigFile(file: string): ConfigFileReading {
  const text = readFileSync(file, 'utf8');
  const compiled = readCompiledDefault();
  if (compiled !== null && compiled.sha256 === createHash('sha256').update(text).digest('hex')) return { ok: true, value: structuredClone(compiled.value) };
  try {
    return { ok: true, value: parseYaml(text) ?? {} };
  } catch (error) {
    // One sentence: the parser's first line ends with a colon that introduces a source excerpt.
    return { ok: false, reason: (describeError(error).split('\n')[0] ?? '').trim().replace(/[:.]$/, '') };
  }
}

function readCompiledDefault(): CompiledConfig | null {
  if (compiledDefault !== undefined) return compiledDefault;
  try {
    const parsed = JSON.parse(readFileSync(compiledDefaultUrl, 'utf8')) as Partial<CompiledConfig>;
    compiledDefault = typeof parsed.sha256 === 'string' && 'value' in parsed ? { sha256: parsed.sha256, value: parsed.value } : null;
  } catch {
    compiledDefault = null;
  }
  return compiledDefault;
}

// Required when first needed: config parsing is synchronous, and most starts never need it.
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text);
}
