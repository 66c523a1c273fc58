import type { ToolSelection } from '../config/config-schema.js';
import { expandProfile } from './profiles.js';

/** The resolved tool names of a scope, and warnings for names in config that no tool has. */
export type ResolvedToolSet = { readonly names: ReadonlySet<string>; readonly warnings: readonly string[] };

/** A global selection and an optional per-channel override (which wins field by field). */
export type ToolSelectionLayers = {
  readonly global: ToolSelection;
  readonly channel?: Partial<ToolSelection>;
};

/**
 * Resolves which tools a scope may see. Precedence, strongest first:
 * 1. deny (global or channel) always wins;
 * 2. a non-empty allow replaces the profile entirely;
 * 3. otherwise the profile, plus alsoAllow.
 * Network and capability rules are applied per call afterwards (decideToolAccess).
 */
export function resolveToolSet(layers: ToolSelectionLayers, registeredNames: readonly string[]): ResolvedToolSet {
  const registered = new Set(registeredNames);
  const channel = layers.channel ?? {};
  const profile = channel.profile ?? layers.global.profile ?? 'messaging';
  const allow = channel.allow && channel.allow.length > 0 ? channel.allow : layers.global.allow;
  const alsoAllow = [...layers.global.alsoAllow, ...(channel.alsoAllow ?? [])];
  const deny = new Set([...layers.global.deny, ...(channel.deny ?? [])]);

  const warnings: string[] = [];
  for (const name of [...allow, ...alsoAllow, ...deny]) {
    if (!registered.has(name)) warnings.push(`Unknown tool "${name}" in the tools config. Valid names: ${[...registered].sort().join(', ')}.`);
  }

  const base = allow.length > 0 ? allow : [...expandProfile(profile, registeredNames), ...alsoAllow];
  const names = new Set(base.filter((name) => registered.has(name) && !deny.has(name)));
  return { names, warnings };
}
