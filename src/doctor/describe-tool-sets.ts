import type { Config, ToolSelection } from '../config/config-schema.js';
import { resolveToolSet } from '../policy/resolve-tool-set.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

/** Where turns run with one tool selection: a configured channel (with its own selection, if any), or scheduled turns. */
export type ToolScope = { readonly name: string; readonly channel?: Partial<ToolSelection> };

/**
 * The tool set each scope (the configured channels, as their adapters say) will offer (profile expanded, the channel's override applied),
 * channels with the same set on one line, then one warning per unknown tool name. Pure.
 */
export function describeToolSets(config: Config, registeredNames: readonly string[], scopes: readonly ToolScope[]): DoctorLine[] {
  const groups = new Map<string, { names: string[]; label: string; tools: string[] }>();
  const warnings = new Set<string>();
  for (const scope of scopes) {
    const resolved = resolveToolSet({ global: config.tools, channel: scope.channel, externalPrefixes: [...Object.keys(config.mcp.servers).map((name) => `${name}__`), 'a2a__'] }, registeredNames);
    for (const warning of resolved.warnings) warnings.add(warning);
    const tools = [...resolved.names].sort();
    const label = selectionLabel(config.tools, scope.channel);
    const key = `${label}|${tools.join(',')}`;
    const group = groups.get(key) ?? { names: [], label, tools };
    group.names.push(scope.name);
    groups.set(key, group);
  }
  return [
    ...[...groups.values()].map((group) =>
      doctorLine(group.tools.length === 0 ? 'warn' : 'ok', 'tools', `${group.names.join(', ')} (${group.label}): ${group.tools.length === 0 ? 'no tools at all' : group.tools.join(', ')}`),
    ),
    ...[...warnings].map((warning) => doctorLine('warn', 'tools', warning)),
  ];
}

/** `messaging`, `coding + exec - web_fetch`, or `allow list`: how the set was chosen. Pure. */
export function selectionLabel(global: ToolSelection, channel: Partial<ToolSelection> = {}): string {
  const allow = channel.allow && channel.allow.length > 0 ? channel.allow : global.allow;
  const denied = [...global.deny, ...(channel.deny ?? [])].map((name) => ` - ${name}`).join('');
  if (allow.length > 0) return `allow list${denied}`;
  const profile = channel.profile ?? global.profile ?? 'messaging';
  const added = [...global.alsoAllow, ...(channel.alsoAllow ?? [])].map((name) => ` + ${name}`).join('');
  return `${profile}${added}${denied}`;
}
