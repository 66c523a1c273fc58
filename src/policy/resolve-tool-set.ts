import type { ToolSelection } from '../config/config-schema.js';
import { expandProfile } from './profiles.js';

/** The resolved tool names of a scope, and warnings for names in config that no tool has. */
export type ResolvedToolSet = { readonly names: ReadonlySet<string>; readonly warnings: readonly string[] };

/** A global selection and an optional per-channel override (which wins field by field). */
export type ToolSelectionLayers = {
  readonly global: ToolSelection;
  readonly channel?: Partial<ToolSelection>;
  /**
   * Name prefixes of tools from outside the catalogue (`files__` for the MCP server `files`): no profile includes
   * them, only allow and alsoAllow bring them in, and a name under one is not warned about while its server is down.
   */
  readonly externalPrefixes?: readonly string[];
};

/**
 * Resolves which tools a scope may see. Precedence, strongest first:
 * 1. deny (global or channel) always wins;
 * 2. a non-empty allow replaces the profile entirely;
 * 3. otherwise the profile (built-in tools only), plus alsoAllow.
 * An entry ending in `*` (`files__*`) matches every name it starts. Network and capability rules are applied per
 * call afterwards (decideToolAccess).
 */
export function resolveToolSet(layers: ToolSelectionLayers, registeredNames: readonly string[]): ResolvedToolSet {
  const registered = new Set(registeredNames);
  const externalPrefixes = layers.externalPrefixes ?? [];
  const isExternal = (name: string) => externalPrefixes.some((prefix) => name.startsWith(prefix));
  const channel = layers.channel ?? {};
  const profile = channel.profile ?? layers.global.profile ?? 'messaging';
  const allow = channel.allow && channel.allow.length > 0 ? channel.allow : layers.global.allow;
  const alsoAllow = [...layers.global.alsoAllow, ...(channel.alsoAllow ?? [])];
  const deny = [...layers.global.deny, ...(channel.deny ?? [])];

  const warnings: string[] = [];
  for (const entry of [...allow, ...alsoAllow, ...deny]) {
    if (isExternal(entry) || registeredNames.some((name) => matches(entry, name))) continue;
    warnings.push(`Unknown tool "${entry}" in the tools config. Valid names: ${[...registered].sort().join(', ')}.`);
  }

  const expand = (entries: readonly string[]) => registeredNames.filter((name) => entries.some((entry) => matches(entry, name)));
  const builtin = registeredNames.filter((name) => !isExternal(name));
  const base = allow.length > 0 ? expand(allow) : [...expandProfile(profile, builtin).filter((name) => registered.has(name)), ...expand(alsoAllow)];
  const denied = new Set(expand(deny));
  const names = new Set(base.filter((name) => !denied.has(name)));
  return { names, warnings };
}

/** True when a config entry names the tool: exactly, or as a `prefix*` glob. */
function matches(entry: string, name: string): boolean {
  return entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name;
}
