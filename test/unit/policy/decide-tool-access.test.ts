import { describe, expect, it } from 'vitest';
import { type CapabilityRules, decideToolAccess, type PolicyScope } from '../../../src/policy/decide-tool-access.js';

const scope = (overrides: Partial<PolicyScope> = {}): PolicyScope => ({
  visibleTools: new Set(['web_fetch', 'memory', 'exec']),
  network: 'public-only',
  capabilityRules: {},
  ...overrides,
});
const webFetch = { name: 'web_fetch', risk: 'read_only' as const, capabilities: ['network.outbound'] };
const memory = { name: 'memory', risk: 'write' as const, capabilities: ['store.write'] };

describe('decideToolAccess', () => {
  it('allows a visible tool with no rules against it', () => {
    expect(decideToolAccess(webFetch, scope())).toEqual({ decision: 'allow' });
  });

  it('denies a tool outside the resolved set first, whatever else says', () => {
    const rules: CapabilityRules = { 'network.outbound': 'allow' };
    expect(decideToolAccess(webFetch, scope({ visibleTools: new Set(['memory']), network: 'allow', capabilityRules: rules }))).toEqual({
      decision: 'deny',
      reason: 'The tool "web_fetch" is not available in this conversation.',
    });
  });

  it('denies a tool outside the scoped allow-list', () => {
    expect(decideToolAccess(memory, scope({ allowedTools: ['web_fetch'] }))).toEqual({ decision: 'deny', reason: 'The tool "memory" is not allowed in this context.' });
    expect(decideToolAccess(memory, scope({ allowedTools: ['memory'] }))).toEqual({ decision: 'allow' });
  });

  it('denies network.outbound tools when the network policy is deny', () => {
    expect(decideToolAccess(webFetch, scope({ network: 'deny' }))).toEqual({ decision: 'deny', reason: 'Network access is turned off by policy, so "web_fetch" cannot run.' });
    expect(decideToolAccess(memory, scope({ network: 'deny' }))).toEqual({ decision: 'allow' });
  });

  it('lets network tools through under public-only and allow (the URL check runs per request)', () => {
    expect(decideToolAccess(webFetch, scope({ network: 'public-only' })).decision).toBe('allow');
    expect(decideToolAccess(webFetch, scope({ network: 'allow' })).decision).toBe('allow');
  });

  it('denies a tool with a capability ruled deny', () => {
    expect(decideToolAccess(memory, scope({ capabilityRules: { 'store.write': 'deny' } }))).toEqual({ decision: 'deny', reason: 'The capability "store.write" is denied by policy.' });
  });

  it('asks for a tool with a capability ruled ask', () => {
    expect(decideToolAccess(webFetch, scope({ capabilityRules: { 'network.outbound': 'ask' } }))).toEqual({
      decision: 'ask',
      reason: 'The capability "network.outbound" needs approval by policy.',
    });
  });

  it('lets a deny rule win over an ask rule, in any order', () => {
    const tool = { name: 'memory', risk: 'write' as const, capabilities: ['a', 'b'] };
    expect(decideToolAccess(tool, scope({ capabilityRules: { a: 'ask', b: 'deny' } })).decision).toBe('deny');
    expect(decideToolAccess(tool, scope({ capabilityRules: { a: 'deny', b: 'ask' } })).decision).toBe('deny');
  });

  it('ignores inherited names in the capability rules', () => {
    const tool = { name: 'memory', risk: 'write' as const, capabilities: ['constructor', 'toString'] };
    expect(decideToolAccess(tool, scope())).toEqual({ decision: 'allow' });
  });
});
