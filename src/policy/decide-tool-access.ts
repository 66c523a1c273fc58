import type { Risk } from '../events/risk.js';

/** What policy says about one tool call. */
export type PolicyDecision =
  | { readonly decision: 'allow' }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'ask'; readonly reason: string };

/** What policy needs to know about a tool. */
export type ToolFacts = { readonly name: string; readonly risk: Risk; readonly capabilities: readonly string[] };

/** Capability rules from config: a capability may be allowed, denied or made to ask. */
export type CapabilityRules = Readonly<Record<string, 'allow' | 'deny' | 'ask'>>;

/** The facts of the scope the call happens in. */
export type PolicyScope = {
  /** Names resolved by resolveToolSet for this session's channel. */
  readonly visibleTools: ReadonlySet<string>;
  /** Further narrowing by the execution context (e.g. a sub-task), when set. */
  readonly allowedTools?: readonly string[];
  readonly network: 'public-only' | 'allow' | 'deny';
  readonly capabilityRules: CapabilityRules;
};

/**
 * Decides whether a tool may be called. Precedence, strongest first:
 * 1. a tool outside the resolved set (deny / allow / profile / alsoAllow, see resolveToolSet) is denied;
 * 2. a tool outside the context's scoped allow-list is denied;
 * 3. network: with `network: deny`, tools needing network.outbound are denied;
 * 4. capability rules: any capability ruled `deny` denies; else any ruled `ask` asks;
 * 5. otherwise allowed. Approval (the gate) is decided after this, on allowed calls only.
 */
export function decideToolAccess(tool: ToolFacts, scope: PolicyScope): PolicyDecision {
  if (!scope.visibleTools.has(tool.name)) return { decision: 'deny', reason: `The tool "${tool.name}" is not available in this conversation.` };
  if (scope.allowedTools && !scope.allowedTools.includes(tool.name)) {
    return { decision: 'deny', reason: `The tool "${tool.name}" is not allowed in this context.` };
  }
  if (scope.network === 'deny' && tool.capabilities.includes('network.outbound')) {
    return { decision: 'deny', reason: `Network access is turned off by policy, so "${tool.name}" cannot run.` };
  }
  let ask: string | undefined;
  for (const capability of tool.capabilities) {
    const rule = Object.hasOwn(scope.capabilityRules, capability) ? scope.capabilityRules[capability] : undefined;
    if (rule === 'deny') return { decision: 'deny', reason: `The capability "${capability}" is denied by policy.` };
    if (rule === 'ask') ask ??= `The capability "${capability}" needs approval by policy.`;
  }
  return ask ? { decision: 'ask', reason: ask } : { decision: 'allow' };
}
