import type { McpSampler } from '../../tools/mcp/index.js';
import type { ModelPort } from '../model/model-port.js';

/** How long one sampling call may take. */
const samplingTimeoutMs = 60_000;

/**
 * Sampling for MCP servers that have `sampling: true`: the agent's (metered) model, counted as the job
 * `mcp:<server>`, so `budgets.job` limits each server and `budgets.global` all of them; no tools.
 */
export function createMcpSampler(model: ModelPort): McpSampler {
  return async (request) => {
    const result = await model.complete({
      messages: [...(request.systemPrompt === undefined ? [] : [{ role: 'system' as const, content: request.systemPrompt }]), ...request.messages.map((message) => ({ role: message.role, content: message.text }))],
      tools: [],
      maxTokens: request.maxTokens,
      signal: AbortSignal.timeout(samplingTimeoutMs),
      attribution: { origin: 'system', sessionKey: `mcp:${request.server}`, channel: 'mcp', chatId: request.server, jobId: `mcp:${request.server}` },
    });
    return result.ok ? { ok: true, text: result.answer.text, model: result.answer.model ?? model.name } : { ok: false, error: `${result.failure.kind}: ${result.failure.message}` };
  };
}
