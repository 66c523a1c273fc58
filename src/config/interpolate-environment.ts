/** A `${NAME}` with no default whose variable is unset. */
export type MissingVariable = { readonly name: string; readonly path: string };

const placeholder = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string of a parsed YAML tree.
 * Interpolating after parsing keeps a value with `:` or `#` from changing the file's structure.
 */
export function interpolateEnvironment(
  value: unknown,
  environment: Readonly<Record<string, string | undefined>>,
  missing: MissingVariable[] = [],
  path = '',
): unknown {
  if (typeof value === 'string') {
    return value.replace(placeholder, (_match, name: string, fallback: string | undefined) => {
      const found = environment[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      missing.push({ name, path });
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => interpolateEnvironment(item, environment, missing, `${path}[${index}]`));
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      result[key] = interpolateEnvironment(item, environment, missing, path === '' ? key : `${path}.${key}`);
    }
    return result;
  }
  return value;
}
