import type { A2aPeer } from '../../src/config/a2a-schema.js';
import type { ToolDefinition } from '../../src/registry/define-tool.js';
import { createA2aPeerTool } from './a2a-peer-tool.js';

/** One governed tool per configured peer, `a2a__<name>`. */
export function createA2aPeerTools(peers: Readonly<Record<string, A2aPeer>>): ToolDefinition[] {
  return Object.entries(peers).map(([name, peer]) => createA2aPeerTool(name, peer) as unknown as ToolDefinition);
}
