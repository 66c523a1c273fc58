import { z } from 'zod';
import type { ToolSchema } from '../model/model-port.js';
import type { ToolDefinition } from './define-tool.js';

/** The JSON Schema of a tool's input as models expect it, or why it cannot be exported. */
export function toToolSchema(tool: ToolDefinition): { ok: true; schema: ToolSchema } | { ok: false; error: string } {
  let parameters: Record<string, unknown>;
  try {
    const exported = tool.parameters ?? (z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'throw' }) as Record<string, unknown>);
    const { $schema: _dropped, ...rest } = exported;
    parameters = rest;
  } catch (error) {
    return { ok: false, error: `its input schema cannot be exported to JSON Schema (${(error as Error).message})` };
  }
  if (parameters.type !== 'object') return { ok: false, error: 'its input schema must be an object' };
  const problem = findArrayWithoutItems(parameters, 'input');
  if (problem) return { ok: false, error: `${problem} is an array without "items"` };
  return { ok: true, schema: { name: tool.name, description: tool.description, parameters } };
}

/** Some providers reject an array schema without `items`; find one, recursively. */
function findArrayWithoutItems(schema: unknown, path: string): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const node = schema as Record<string, unknown>;
  if (node.type === 'array' && node.items === undefined && node.prefixItems === undefined) return path;
  for (const [key, value] of Object.entries(node)) {
    const childPath = key === 'properties' || key === '$defs' ? path : `${path}.${key}`;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        const found = findArrayWithoutItems(item, `${childPath}[${index}]`);
        if (found) return found;
      }
    } else if (value !== null && typeof value === 'object') {
      const found = key === 'properties' ? findInProperties(value as Record<string, unknown>, path) : findArrayWithoutItems(value, childPath);
      if (found) return found;
    }
  }
  return undefined;
}

function findInProperties(properties: Record<string, unknown>, path: string): string | undefined {
  for (const [name, value] of Object.entries(properties)) {
    const found = findArrayWithoutItems(value, `${path}.${name}`);
    if (found) return found;
  }
  return undefined;
}
